// What the bench asks of a server: initiations over REST and tRPC, verifications, list pages, the CSV export.
import type { CpuParties } from "./cpu";
import { sampleOrder } from "../server/testing/initiation";
import { measure, type LoadSpec } from "./load";
import type { LoadResult, Outcome, Server, Unavailable } from "./report";

/** One server or several instances of it (the load is spread over `urls`); `cpu`: whose CPU to account for. */
export type Target = {
  urls: string[];
  token: string;
  publicKey: string;
  server: Server;
  connections: number;
  seconds: number;
  cpu?: CpuParties;
  counters?: () => Promise<Record<string, number>>;
};
export type Channel = "USSD" | "TRANSFER";

// The kit's sample order at the bench's amount, written with kobo as the dashboard does.
const customer = { ...sampleOrder, amount: "1500.00" };

let runTag = Date.now().toString(36);
/** References are unique per run and per scenario; tests pin the tag. */
export function setRunTag(tag: string) {
  runTag = tag;
}

/** The REST body without publicKey, with a reference no request of this run has used. */
let series = 0;

export function initiationBodies(channel: Channel, scenario: string): () => Record<string, string> {
  // A new series per call: a second round of the same scenario must not replay the first one's references.
  const tag = `${scenario}-${series++}`;
  let n = 0;
  const channelFields: Record<string, string> = channel === "USSD" ? { paymentType: "USSD", bankCode: "058" } : { paymentType: "TRANSFER" };
  return () => ({ ...customer, ...channelFields, paymentReference: `bench-${runTag}-${tag}-${n++}` });
}

const json = (t: Target, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  authorization: `Bearer ${t.token}`,
  ...extra,
});

function spec(t: Target, s: Omit<LoadSpec, "urls" | "connections" | "seconds" | "cpu" | "counters">): LoadSpec {
  return { urls: t.urls, connections: t.connections, seconds: t.seconds, cpu: t.cpu, counters: t.counters, ...s };
}

export function initiateOverRest(t: Target, channel: Channel, compareWith?: string): Promise<LoadResult> {
  const next = initiationBodies(channel, `rest-${t.server}-${channel}`);
  const door = t.server === "floor" ? "" : " (REST)";
  return measure(
    `initiate ${channel}${door}`,
    t.server,
    spec(t, {
      method: "POST",
      path: "/api/v2/payments/initiates",
      headers: json(t),
      vary: () => ({ body: JSON.stringify({ publicKey: t.publicKey, ...next() }) }),
    }),
    compareWith,
  );
}

export function initiateOverTrpc(t: Target, channel: Channel, compareWith?: string): Promise<LoadResult> {
  const next = initiationBodies(channel, `trpc-${channel}`);
  return measure(
    `initiate ${channel} (tRPC)`,
    t.server,
    spec(t, {
      method: "POST",
      path: "/api/trpc/initiatePayment",
      headers: json(t),
      vary: () => ({ body: JSON.stringify({ json: next() }) }),
    }),
    compareWith,
  );
}

export function verifyByReference(t: Target, references: string[], compareWith?: string): Promise<LoadResult> {
  let i = 0;
  // A fixed stride through the references: every request reads another payment, spread over the whole table.
  const path = () => `/api/v3/payments/query/${encodeURIComponent(references[(i = (i + 7919) % references.length)] ?? "")}`;
  return measure(
    `verify (REST, ${references.length} refs)`,
    t.server,
    spec(t, { method: "GET", path: path(), headers: json(t), vary: () => ({ path: path() }) }),
    compareWith,
  );
}

/**
 * The sandbox bank paying open payments (API.md "Sandbox bank"): each request another payment, once; the bank's signed
 * notice comes back to the same server, which credits the payment (and, with the books on, posts its entry) before
 * answering. Runs out of payments after `references.length` requests.
 */
export function sandboxCredits(t: Target, references: string[], scenario: string): Promise<LoadResult> {
  let i = 0;
  const path = () => `/api/v2/sandbox/payments/${encodeURIComponent(references[i++ % Math.max(1, references.length)] ?? "")}/simulate`;
  return measure(
    scenario,
    t.server,
    spec(t, {
      method: "POST",
      path: path(),
      headers: json(t),
      vary: () => ({ path: path(), body: '{"outcome":"pay"}' }),
    }),
  );
}

export const trpcQuery = (procedure: string, input: unknown) =>
  `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

/** A procedure the server does not know is a 404 from tRPC; anything else that fails says why. */
async function unavailableReason(t: Target, path: string): Promise<string | null> {
  const res = await fetch(`${t.urls[0]}${path}`, { headers: json(t) });
  if (res.ok) return null;
  const text = await res.text();
  return res.status === 404 ? `${path.split("?")[0]} is not served yet` : `${res.status} ${text.slice(0, 200)}`;
}

/** The dashboard's list: the first page, and a page narrowed by status, channel and the last 30 days. */
export async function listPages(t: Target, today: Date): Promise<Outcome[]> {
  const from = new Date(today.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
  const pages: [string, Record<string, string>][] = [
    ["list: first page (tRPC)", {}],
    [
      "list: SUCCESSFUL TRANSFER, 30 days (tRPC)",
      { status: "SUCCESSFUL", channel: "TRANSFER", from, to: today.toISOString().slice(0, 10) },
    ],
  ];
  const out: Outcome[] = [];
  for (const [scenario, input] of pages) {
    const path = trpcQuery("payments.list", input);
    const reason = await unavailableReason(t, path);
    out.push(
      reason
        ? unavailable(scenario, t.server, reason)
        : await measure(scenario, t.server, spec(t, { method: "GET", path, headers: json(t) })),
    );
  }
  return out;
}

export function unavailable(scenario: string, server: Server, reason: string): Unavailable {
  console.log(`  ${server.padEnd(5)} ${scenario.padEnd(34)} not available: ${reason}`);
  return { kind: "unavailable", scenario, server, reason };
}
