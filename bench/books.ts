// The books in `npm run bench` (issue 23): sandbox credits a second with the ledger against the same build with
// posting switched off (OWO_BENCH_POSTING=off, server/books/post.ts), the entries the initiation scenarios posted
// (none), and balanced entries a second straight through the books core, one and several processes at once.
import { loadavg } from "node:os";
import type { CpuParties } from "./cpu";
import type { Child } from "./processes";
import { measurePostings } from "./ledger";
import type { Dialect } from "./options";
import { creditSlices } from "./credit-slices";
import { creditLeg, pairReadings, type CreditLeg, type PostingCost } from "./posting-cost";
import type { InitiationPostings, LoadResult, Outcome, PostingRate } from "./report";
import { initiationBodies, sandboxCredits, type Target } from "./scenarios";
import { startReceiver, type Receiver } from "../server/testing/receiver";

export const CREDIT = "books: sandbox credit (REST)";
export const CREDIT_POSTING_OFF = "books: sandbox credit, posting off (REST)";

export type BooksStage = {
  root: string;
  dialect: Dialect;
  url: string;
  /** One Owo process of the bench's deployment, with `env` on top. */
  start(env: Record<string, string>): Promise<Child>;
  /** The load shape of the other scenarios on a server at `url` (token, connections, seconds, CPU parties). */
  target(owo: Child): Promise<Target>;
  /** Books in bulk what a server with posting off left unbooked (its start-up would, one payment at a time). */
  bookPaid(): Promise<number>;
  /** Puts the writes so far to rest (BenchDatabase.settle); no Owo running. */
  settle(): Promise<void>;
  /** Open sandbox payments of the bench merchant, newest first. */
  pendingReferences(): Promise<string[]>;
  /** Points the callbacks of the bench merchant's open payments at `url`; answers how many. */
  callbacksTo(url: string): Promise<number>;
  /** Every merchant of the run (their books take the entries load). */
  merchants: string[];
  instances: number[];
  seconds: number;
  /** Pairs of credit legs or slices (`--pairs`), or the database's default. */
  pairs: number | undefined;
  /** The database server's processes, for the CPU account. */
  parties: CpuParties;
};

/** Credits a second no run of this bench has come near (quiet machine: SQLite ~700, PostgreSQL ~220): enough open
 * payments that no leg runs out. */
const CREDITS_A_SECOND_AT_MOST: Record<Dialect, number> = { sqlite: 900, postgres: 350 };
/** Posting on, off, off, on, … for `pairs` pairs: each neighbouring pair is one reading taken close together in time,
 * and a drift during the run (the top-up's autovacuum, a checkpoint, other work on the machine) falls on both sides
 * alike. */
export function creditLegOrder(pairs: number): boolean[] {
  return Array.from({ length: pairs * 2 }, (_, leg) => leg % 2 === (leg >> 1) % 2);
}
/** Pairs when --pairs is not given: SQLite's legs of 5 s or more, a server started for each (a few minutes); PostgreSQL's
 * slices of a few seconds, both servers up (about four minutes). */
const LEG_PAIRS = 4;
const SLICE_PAIRS = 40;
/** A PostgreSQL slice: what the server without posting paid in this long during its warm-up. */
const SLICE_SECONDS = 3;
/** Open payments for PostgreSQL's slices are initiated this many slices' worth at a time, between slices. */
const SLICES_STOCKED = 20;
/** Each leg the scenario's measured time, at least 5 s: a credit's latency under load exceeded 1 s legs. */
const legSeconds = (seconds: number) => Math.max(5, seconds);
/** Open payments a leg may use: its warm-up, measured time and the server's start. */
const creditsOfLeg = (b: BooksStage) => CREDITS_A_SECOND_AT_MOST[b.dialect] * (legSeconds(b.seconds) + 3);

/**
 * Open payments for the next pair of legs, initiated by a server of their own before either leg starts, so both legs of
 * a pair run on the same database and neither measures the initiations' writes. A pair at a time, not every leg's at
 * the start: planned for the fastest machine, 24 pairs' worth took longer to initiate than the legs took to run.
 */
async function stock(b: BooksStage, env: Record<string, string>, callbackUrl: string): Promise<void> {
  const supplier = await b.start(env);
  try {
    await topUp(b, await b.target(supplier), 2 * creditsOfLeg(b), callbackUrl);
  } finally {
    await supplier.stop();
  }
}

/** Initiates open TRANSFER payments over REST until `wanted` exist (the initiate scenarios usually leave plenty). */
async function topUp(b: BooksStage, t: Target, wanted: number, callbackUrl: string): Promise<string[]> {
  let references = await b.pendingReferences();
  const next = initiationBodies("TRANSFER", "books-supply");
  while (references.length < wanted) {
    const missing = wanted - references.length;
    console.log(`  initiating ${missing} open payments for the credits to pay`);
    for (let sent = 0; sent < missing; sent += 32) {
      await Promise.all(
        Array.from({ length: Math.min(32, missing - sent) }, () =>
          fetch(`${t.urls[0]}/api/v2/payments/initiates`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${t.token}` },
            body: JSON.stringify({ publicKey: t.publicKey, ...next(), callbackUrl }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    references = await b.pendingReferences();
  }
  return references;
}

const mean = (values: number[]) => values.reduce((a, v) => a + v, 0) / values.length;

function meanOf(records: (Record<string, number> | undefined)[]): Record<string, number> | undefined {
  const present = records.filter((r): r is Record<string, number> => r !== undefined);
  if (present.length === 0) return undefined;
  return Object.fromEntries(Object.keys(present[0] ?? {}).map((k) => [k, mean(present.map((r) => r[k] ?? 0))]));
}

/** One side's legs as one row: requests and errors summed, rates and cores averaged (legs of equal length), each
 * latency percentile the worse leg's. */
export function pooled(scenario: string, legs: LoadResult[]): LoadResult {
  const [first] = legs;
  if (!first) throw new Error(`${scenario}: no leg measured`);
  return {
    ...first,
    scenario,
    requests: legs.reduce((n, l) => n + l.requests, 0),
    rps: mean(legs.map((l) => l.rps)),
    p50: Math.max(...legs.map((l) => l.p50)),
    p90: Math.max(...legs.map((l) => l.p90)),
    p99: Math.max(...legs.map((l) => l.p99)),
    errors: legs.reduce((n, l) => n + l.errors, 0),
    cpu: meanOf(legs.map((l) => l.cpu)),
    databasePerSecond: meanOf(legs.map((l) => l.databasePerSecond)),
  };
}

type CreditCost = Promise<[LoadResult, LoadResult, PostingCost]>;

/** Issue 23's posting cost: credits a second with the books against the same build with posting off. */
export async function creditCost(b: BooksStage): CreditCost {
  // The merchant's shop answers every callback at once, as a healthy one does. An address nobody answers (as the bench
  // had) left each credit's callback to be retried, and the retries of earlier legs fell into later ones by the hundred.
  const shop = await startReceiver();
  const callbackUrl = shop.url("/owo/callback");
  const env = { OWO_ALLOW_PRIVATE_CALLBACKS: "1" };
  try {
    return await (b.dialect === "sqlite" ? creditCostInLegs : creditCostInSlices)(b, shop, callbackUrl, env);
  } finally {
    await shop.stop();
  }
}

/**
 * SQLite: one server at a time, posting on and off in legs (on, off, off, on, …), each leg on open payments nobody has
 * paid (one credit each). A deployment on SQLite is one process on its file; two processes on one file would measure
 * each other's waits for its one writer's lock, which no deployment has. The pooled rows go to the results table; the
 * legs themselves to the posting cost's verdict.
 */
async function creditCostInLegs(b: BooksStage, shop: Receiver, callbackUrl: string, env: Record<string, string>): CreditCost {
  const order = creditLegOrder(b.pairs ?? LEG_PAIRS);
  console.log(
    `\n${b.dialect} books: sandbox credits, posting on and posting off (${order.length} legs of ${legSeconds(b.seconds)} s: on, off, off, on, …)`,
  );
  await stock(b, env, callbackUrl);
  console.log(`  the shop at ${callbackUrl} takes the callbacks of ${await b.callbacksTo(callbackUrl)} open payments`);
  return creditLegs(b, order, env, callbackUrl, shop);
}

/**
 * PostgreSQL: both servers up at once on one database, posting on and posting off, the credits sent to each in turn in slices
 * (bench/credit-slices.ts), each on open payments nobody has paid (one credit each). The pooled rows go to the
 * results table; the slices themselves to the posting cost's verdict. The credits made with posting off are booked in
 * bulk at the end, so a later server's start-up has nothing to book.
 */
async function creditCostInSlices(b: BooksStage, shop: Receiver, callbackUrl: string, env: Record<string, string>): CreditCost {
  const order = creditLegOrder(b.pairs ?? SLICE_PAIRS);
  console.log(
    `\n${b.dialect} books: sandbox credits, posting on and posting off side by side (${order.length} slices of ~${SLICE_SECONDS} s)`,
  );
  const servers: Child[] = [];
  try {
    servers.push(await b.start(env), await b.start({ ...env, OWO_BENCH_POSTING: "off" }));
    const [on, off] = await Promise.all(servers.map((s) => b.target(s)));
    if (!on || !off) throw new Error("books: the two servers did not start");
    console.log(`  the shop at ${callbackUrl} takes the callbacks of ${await b.callbacksTo(callbackUrl)} open payments`);
    let open: string[] = [];
    const take = async (n: number) => {
      if (open.length < n) {
        open = await topUp(b, on, n * SLICES_STOCKED, callbackUrl);
        await b.settle();
      }
      return open.splice(0, n);
    };
    const run = await creditSlices(
      { on: { posting: true, url: on.urls[0] ?? "", token: on.token }, off: { posting: false, url: off.urls[0] ?? "", token: off.token } },
      order,
      {
        sliceSeconds: SLICE_SECONDS,
        connections: on.connections,
        parties: {
          ...b.parties,
          owo: () => servers.flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid])),
          client: () => [process.pid],
        },
        take,
        scenario: (posting) => (posting ? CREDIT : CREDIT_POSTING_OFF),
      },
    );
    console.log(`  the shop received ${shop.received.length} callbacks`);
    const [rowOn, rowOff] = [pooled(CREDIT, run.results.get(true) ?? []), pooled(CREDIT_POSTING_OFF, run.results.get(false) ?? [])];
    return [rowOn, rowOff, { kind: "posting-cost", scenario: CREDIT, database: b.dialect, legSeconds: run.sliceSeconds, legs: run.legs }];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    console.log(`  booked in bulk the ${await b.bookPaid()} credits made with posting off`);
  }
}

async function creditLegs(b: BooksStage, order: boolean[], env: Record<string, string>, callbackUrl: string, shop: Receiver): CreditCost {
  const results = new Map<boolean, LoadResult[]>([
    [true, []],
    [false, []],
  ]);
  const legs: CreditLeg[] = [];
  for (const [leg, posting] of order.entries()) {
    if (leg > 0 && leg % 2 === 0) await stock(b, env, callbackUrl);
    // Every leg starts from a database at rest: the top-up's writes, the bulk booking's or the last leg's are not its own.
    await b.settle();
    const owo = await b.start(posting ? env : { ...env, OWO_BENCH_POSTING: "off" });
    const callbacks = shop.received.length;
    let measuredCallbacks = 0;
    try {
      const t = { ...(await b.target(owo)), seconds: legSeconds(b.seconds) };
      // Read afresh: the legs before paid theirs; a leg faster than planned leaves more for the next, a shortfall is made up.
      const open = await topUp(b, t, creditsOfLeg(b), callbackUrl);
      const before = shop.received.length;
      const result = await sandboxCredits(t, open, posting ? CREDIT : CREDIT_POSTING_OFF);
      // Those of the leg's warm-up and measured credits, not the backlog of the legs before (delivered during the top-up).
      measuredCallbacks = shop.received.length - before;
      results.get(posting)?.push(result);
      legs.push(creditLeg(posting, result, loadavg()[0] ?? 0));
    } finally {
      await owo.stop();
    }
    console.log(`  the shop received ${shop.received.length - callbacks} callbacks, ${measuredCallbacks} of them while the credits ran`);
    shop.received.length = 0;
    if (!posting) console.log(`  booked in bulk the ${await b.bookPaid()} credits made with posting off`);
    const [reading] = pairReadings(legs.slice(-2));
    if (legs.length % 2 === 0 && reading)
      console.log(
        `  pair ${legs.length / 2}: posting ${(reading.rate * 100).toFixed(1)} % slower, CPU a credit ${reading.cpu === null ? "?" : `${(reading.cpu * 100).toFixed(1)} %`} more (load ${loadavg()[0]?.toFixed(1)})`,
      );
  }
  return [
    pooled(CREDIT, results.get(true) ?? []),
    pooled(CREDIT_POSTING_OFF, results.get(false) ?? []),
    { kind: "posting-cost", scenario: CREDIT, database: b.dialect, legSeconds: legSeconds(b.seconds), legs },
  ];
}

/** Balanced entries a second: one writer; eight on one merchant (they queue); eight over every merchant; several instances. */
export async function entriesPerSecond(b: BooksStage): Promise<PostingRate[]> {
  const one = b.merchants.slice(0, 1);
  const shapes: [processes: number, writers: number, merchants: string[]][] = [
    [1, 1, one],
    [1, 8, one],
    [1, 8, b.merchants],
    ...(b.dialect === "postgres" ? b.instances.filter((n) => n > 1).map((n): [number, number, string[]] => [n, 8, one]) : []),
  ];
  const out: PostingRate[] = [];
  for (const [processes, writers, merchants] of shapes) {
    const r = await measurePostings(b.root, { url: b.url, merchants, processes, writers, seconds: b.seconds, parties: b.parties });
    const rate: PostingRate = {
      kind: "postings",
      scenario: "books: balanced entries",
      database: b.dialect,
      processes,
      writers,
      merchants: merchants.length,
      perSecond: r.perSecond,
      machine: r.otherCores,
      writerMs: r.writerMs,
      databaseMs: r.databaseMs,
    };
    console.log(
      `  ${b.dialect} ${processes} process(es) × ${writers} writer(s), ${merchants.length} merchant(s): ${r.perSecond} entries/s, CPU an entry ${r.writerMs.toFixed(2)} ms writer + ${r.databaseMs.toFixed(2)} ms database (other work on the machine: ${r.otherCores.toFixed(2)} cores)`,
    );
    out.push(rate);
  }
  return out;
}

export function booksTable(outcomes: Outcome[]): string | null {
  const rates = outcomes.filter((o): o is PostingRate => o.kind === "postings");
  const checks = outcomes.filter((o): o is InitiationPostings => o.kind === "initiation-postings");
  if (rates.length === 0 && checks.length === 0) return null;
  const lines = [
    "| books | db | processes × writers | merchants | entries/s | CPU an entry: writer + database (ms) | other work (cores) |",
    "|---|---|--:|--:|--:|--:|--:|",
    ...rates.map(
      (r) =>
        `| ${r.scenario} | ${r.database ?? ""} | ${r.processes} × ${r.writers} | ${r.merchants} | ${r.perSecond} | ${r.writerMs.toFixed(2)} + ${r.databaseMs.toFixed(2)} | ${r.machine.toFixed(2)} |`,
    ),
    ...checks.map((c) => `| ${c.scenario} | ${c.database ?? ""} | ${c.initiations} initiations | | ${c.entries} entries | | |`),
  ];
  return lines.join("\n");
}
