// One process posting balanced entries through the books core (server/books/post.ts), as a credit books them: several
// writers at once, each its own stream of one-entry write transactions, for `OWO_LEDGER_SECONDS` from the moment the
// bench writes a start time (epoch ms) to its standard input, after every process said "ready". Several of these
// processes on one PostgreSQL are several instances. Prints what it posted.
import { closeDatabase, write } from "../db/client";
import { postEntry } from "../server/books/post";

const seconds = Number(process.env.OWO_LEDGER_SECONDS);
const writers = Number(process.env.OWO_LEDGER_WRITERS);
const merchants = (process.env.OWO_LEDGER_MERCHANTS ?? "").split(",").filter(Boolean);
if (!(seconds > 0 && writers > 0 && merchants.length > 0)) throw new Error("ledger-writer: OWO_LEDGER_* not set");

let stopAt = 0;
let posted = 0;

async function writer(k: number): Promise<void> {
  const merchantId = merchants[k % merchants.length] ?? "";
  for (let n = 0; Date.now() < stopAt; n++) {
    const amountKobo = 10_000 + ((k * 7919 + n * 104_729) % 5_000_000);
    const feeKobo = Math.min(200_000, Math.round(amountKobo * 0.015));
    await write(
      (tx) =>
        postEntry(tx, {
          merchantId,
          mode: "test",
          kind: "credit",
          postings: [
            { account: "provider:sandbox", amountKobo },
            { account: "sales", amountKobo: -amountKobo },
            { account: "fees", amountKobo: feeKobo },
            { account: "provider:sandbox", amountKobo: -feeKobo },
          ],
          postedAt: Date.now(),
        }),
      // As a sandbox credit posts (server/payments/lifecycle.ts): read committed, the queue taken by the posting itself.
      { isolation: "read committed" },
    );
    posted++;
  }
}

// The first entry of each merchant makes its head row; made before the clock starts, so every writer meets a head.
for (const merchantId of merchants)
  await write((tx) =>
    postEntry(tx, {
      merchantId,
      mode: "test",
      kind: "credit",
      postings: [
        { account: "sales", amountKobo: -1 },
        { account: "provider:sandbox", amountKobo: 1 },
      ],
      postedAt: Date.now(),
    }),
  );
process.stdout.write("ready\n");
const startAt = await new Promise<number>((resolve) => process.stdin.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
stopAt = startAt + seconds * 1000;
await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
const t0 = Date.now();
const cpu0 = process.cpuUsage();
await Promise.all(Array.from({ length: writers }, (_, k) => writer(k)));
const took = (Date.now() - t0) / 1000;
const used = process.cpuUsage(cpu0);
await closeDatabase();
process.stdout.write(`${JSON.stringify({ posted, seconds: took, cpuSeconds: (used.user + used.system) / 1e6 })}\n`);
