// The history of one merchant on one database: the dashboard's list at 4 connections, then the CSV export of the
// whole history on a fresh server process (time to the last byte, peak RSS).
import { measureExport } from "./export-scenario";
import { listPages, unavailable, type Target } from "./scenarios";
import { LIST_CONNECTIONS, seed, startOwos, tokenFor, type BenchMerchant, type Stage } from "./stage";

/**
 * The list and the export are per merchant, on one instance. The second merchant gets the whole seeded history: the
 * first one has just made tens of thousands of pending payments in a minute, which no real history looks like.
 */
export async function history(s: Stage, merchant: BenchMerchant, firstIndex: number) {
  if (!s.run.wanted("list") && !s.run.wanted("export")) return;
  console.log(`\n${s.db.dialect} history: ${s.run.size.listRows.toLocaleString("en")} seeded payments of one merchant`);
  await seed(
    s,
    [{ id: merchant.merchantId, name: merchant.name }],
    s.run.size.listRows - (await s.db.paymentsOf(merchant.merchantId)),
    firstIndex,
  );
  if (s.run.wanted("list")) {
    const [owo] = await startOwos(s, 1);
    if (!owo) throw new Error("no server");
    try {
      const at: Target = {
        urls: [owo.url],
        token: await tokenFor(owo.url, merchant),
        publicKey: merchant.publicKey,
        server: "owo",
        connections: LIST_CONNECTIONS,
        seconds: s.run.size.seconds,
      };
      s.outcomes.push(...(await listPages(at, new Date())));
    } finally {
      await owo.stop();
    }
  }
  if (!s.run.wanted("export")) return;
  if (!s.run.pages) {
    s.outcomes.push(unavailable("CSV export, whole history", "owo", "next build failed, so the export route was not served"));
    return;
  }
  // A fresh process, so the peak RSS is the export's and not the heap the list load left behind.
  const [owo] = await startOwos(s, 1);
  if (!owo) throw new Error("no server");
  const { closeDatabase } = await import("../db/client");
  try {
    s.outcomes.push(await measureExport(owo, merchant, s.run.secrets.AUTH_SECRET));
  } finally {
    await owo.stop();
    // The session was written through the bench's own data layer: let go of this database before the next one.
    await closeDatabase();
  }
}
