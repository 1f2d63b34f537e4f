// Issue 23's stage of a run (bench/books.ts measures): the servers and targets the books scenarios need on one database.
import { creditCost, entriesPerSecond, type BooksStage } from "./books";
import { CONNECTIONS, pidsOf, startOwo, tokenFor, type BenchMerchant, type Stage } from "./stage";

/** Issue 23's figures: what the books cost a sandbox credit, and balanced entries a second through the books core. */
export async function measureBooks(s: Stage, merchants: BenchMerchant[], bench: BenchMerchant): Promise<void> {
  const stage: BooksStage = {
    root: s.run.root,
    dialect: s.db.dialect,
    url: s.db.url,
    start: (env) => startOwo(s, env),
    target: async (owo) => ({
      urls: [owo.url],
      token: await tokenFor(owo.url, bench),
      publicKey: bench.publicKey,
      server: "owo",
      connections: CONNECTIONS,
      seconds: s.run.size.seconds,
      cpu: { owo: pidsOf([owo]), ...s.db.parties(), client: () => [process.pid] },
      counters: s.db.counters(s.db.url),
    }),
    bookPaid: () => s.db.bookPaid(),
    settle: () => s.db.settle(),
    pendingReferences: () => s.db.openReferencesOf(bench.merchantId, 200_000),
    callbacksTo: (url) => s.db.callbacksTo(bench.merchantId, url),
    merchants: merchants.map((m) => m.merchantId),
    instances: s.run.options.instances,
    seconds: s.run.size.seconds,
    pairs: s.run.options.pairs,
    parties: s.db.parties(),
  };
  if (s.run.wanted("books: sandbox credit")) s.outcomes.push(...(await creditCost(stage)));
  if (s.run.wanted("books: balanced entries")) s.outcomes.push(...(await entriesPerSecond(stage)));
}
