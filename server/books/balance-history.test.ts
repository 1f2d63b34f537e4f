// The Balances page's core on a real database: each provider's unsettled balance at the end of each Lagos day and what
// was paid out, ending at the kept balance; and the ledger entries as a journal CSV, one line per posting, scoped to
// the merchant and mode, by Lagos days, the same in any batch size.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { credit, openTransfer } from "../testing/in-process-payments";
import { transferBody, trpcClient } from "../testing/initiation";
import { exportJournal, journalQuery } from "./journal";
import { parseFields } from "../api-error";
import { dayStartOf } from "../payments/calendar";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const DAY = 86_400_000;

async function journal(merchantId: string, query: unknown, batchSize?: number): Promise<string> {
  // Parsed as the download's door parses it, so its refusals are the ones a person sees.
  const { chunks } = await exportJournal({ merchantId, mode: "test" }, parseFields(journalQuery, query), batchSize);
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

test("unsettled by day, carried forward, and a sandbox payout the day it was paid; the last point is today's balance", async () => {
  const m = await createTestMerchant("Balances Store");
  const quiet = await createTestMerchant("Quiet Balances Store");
  const token = await tokenFor(owo, m);
  const now = Date.now();
  // ₦24,000.00 three Lagos days ago, straight into the books: the sandbox bank never sent it, so it never pays it out.
  const old = await openTransfer(m.merchantId, "https://shop.example.ng/cb", { amount: "24000", at: now - 3 * DAY });
  await credit(old.accountNumber, 2_400_000, now - 3 * DAY + 60_000);
  // ₦1,500.00 today through the sandbox bank, which settles it now.
  const body = transferBody(m.publicKey, { amount: "1500" });
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
  const paid = await call(owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token,
    body: { outcome: "pay" },
  });
  assert.equal(paid.status, 200, paid.text);
  const settled = await call(owo, "POST", "/api/v2/sandbox/settlements", { token, body: {} });
  assert.equal(settled.status, 200, settled.text);
  assert.equal(settled.json.data.settlement.netAmount, "1477.50");

  const history = await trpcClient(owo, token).books.history.query();
  assert.deepEqual(history.providers, [{ providerId: "sandbox", provider: "sandbox" }]);
  assert.equal(history.days.length, 30);
  const todayIso = new Date(dayStartOf(now) + 3_600_000).toISOString().slice(0, 10);
  assert.equal(history.days.at(-1)?.day, todayIso);
  assert.deepEqual(
    history.days.slice(-5).map((d) => [d.unsettled.sandbox, d.paidOut]),
    [
      [0, 0],
      [2_354_000, 0], // ₦24,000.00 less its ₦460.00 fee
      [2_354_000, 0],
      [2_354_000, 0],
      [2_354_000, 147_750], // today's ₦1,477.50 came in and went out
    ],
  );
  const balances = await trpcClient(owo, token).books.balances.query();
  assert.equal(balances.balances.providers[0]?.unsettled, "23540.00");
  assert.equal(balances.balances.bank, "1477.50");

  const theirs = await trpcClient(owo, await tokenFor(owo, quiet)).books.history.query();
  assert.deepEqual(theirs.providers, []);
  assert.ok(theirs.days.every((d) => d.paidOut === 0 && Object.keys(d.unsettled).length === 0));
});

test("the journal CSV: one line per posting, oldest first, amounts as signed numbers, by Lagos days, in any batch size", async () => {
  const m = await createTestMerchant("Journal Store");
  const other = await createTestMerchant("Other Journal Store");
  const now = Date.now();
  const first = await openTransfer(m.merchantId, "https://shop.example.ng/cb", { amount: "2500", at: now - 2 * DAY });
  await credit(first.accountNumber, 250_000, now - 2 * DAY + 60_000);
  const second = await openTransfer(m.merchantId, "https://shop.example.ng/cb", { amount: "1000" });
  await credit(second.accountNumber, 100_000);
  await credit((await openTransfer(other.merchantId, "https://other.example.ng/cb")).accountNumber);

  const all = await journal(m.merchantId, {});
  const lines = all.trimEnd().split("\r\n");
  assert.equal(
    lines[0],
    "Posted (UTC),Sequence,Entry,Kind,Reason,Payment reference,Refund reference,Settlement,Account,Amount (NGN),Hash,Posted (Lagos time)",
  );
  // Lagos is UTC+1 all year: each line's last field is its first an hour on, as a spreadsheet reads a date and time.
  for (const line of lines.slice(1)) {
    const fields = line.split(",");
    const lagos = new Date(Date.parse(fields[0] ?? "") + 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    assert.equal(fields.at(-1), lagos);
  }
  assert.deepEqual(
    lines.slice(1).map((l) => l.split(",").filter((_, i) => [1, 3, 8, 9].includes(i))),
    [
      ["1", "credit", "provider:sandbox", "2500.00"],
      ["1", "credit", "sales", "-2500.00"],
      ["1", "credit", "fees", "137.50"],
      ["1", "credit", "provider:sandbox", "-137.50"],
      ["2", "credit", "provider:sandbox", "1000.00"],
      ["2", "credit", "sales", "-1000.00"],
      ["2", "credit", "fees", "15.00"],
      ["2", "credit", "provider:sandbox", "-15.00"],
    ],
  );
  assert.ok(!all.includes("1500.00"), "the other merchant's credit is not in this journal");
  assert.equal(await journal(m.merchantId, {}, 1), all, "batch by batch, the same file");

  const today = new Date(dayStartOf(now) + 3_600_000).toISOString().slice(0, 10);
  const fromToday = (await journal(m.merchantId, { from: today })).trimEnd().split("\r\n");
  assert.deepEqual(
    fromToday.slice(1).map((l) => l.split(",")[1]),
    ["2", "2", "2", "2"],
  );
  await assert.rejects(
    () => journal(m.merchantId, { from: "2026-02-30" }),
    (e: { errors?: { field: string }[] }) => e.errors?.[0]?.field === "from",
  );
  await assert.rejects(
    () => journal(m.merchantId, { from: "2026-02-02", to: "2026-02-01" }),
    (e: { errors?: { field: string; message: string }[] }) => e.errors?.[0]?.message === "must not be later than to",
  );
  // A field the download does not take is ignored, as the API ignores one.
  assert.deepEqual(await journal(m.merchantId, { cursor: "5" }), await journal(m.merchantId, {}));
});
