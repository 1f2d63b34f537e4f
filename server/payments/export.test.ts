// CSV export on a real database: the filtered list in batches, every row once, safe cells, the connection free between batches.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { eventually } from "../testing/eventually";
import { db } from "../../db/client";
import { paymentBooks } from "../books/payment-books";
import { findPayment } from "./lookup";
import { newReference, trpcInput, transferBody, ussdBody } from "../testing/initiation";
import { initiatePayment } from "./initiate";
import { parseInitiateRequest } from "./initiate-schema";
import { exportPayments, csvField } from "./export";
import { listPayments } from "./history";
import { countPayments } from "./filters";

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Export Store");
});
after(() => owo.stop());

async function payment(at: number, body: Record<string, unknown>): Promise<string> {
  const request = parseInitiateRequest(trpcInput(body), { publicKey: false });
  await initiatePayment(request, { merchantId: m.merchantId, mode: "test", source: "rest", now: at });
  return request.paymentReference;
}

/** RFC 4180 records → arrays of fields (quoted fields may hold commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line.length > 0)
    .map((line) =>
      // Each field ends at a comma once one is added after the last, so a blank last field is kept.
      [...`${line},`.matchAll(/("(?:[^"]|"")*"|[^,]*),/g)]
        .map((f) => f[1] ?? "")
        .map((f) => (f.startsWith('"') ? f.slice(1, -1).replaceAll('""', '"') : f)),
    );
}

test("streams the filtered list newest first in batches, each row once, with the header first", async () => {
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 23; i++)
    await payment(
      start + Math.floor(i / 2) * 1000,
      (i % 3 === 0 ? ussdBody : transferBody)("", { paymentReference: newReference("csv"), amount: `${1000 + i}` }),
    );

  const transfers = await exportPayments({ merchantId: m.merchantId, mode: "test" }, { channel: "TRANSFER" }, 5);
  assert.equal(transfers.total, 15);
  const chunks = await collect(transfers.chunks);
  assert.equal(chunks.length, 1 + 3, "the header, then batches of 5");
  const rows = parseCsv(chunks.join(""));
  assert.deepEqual(rows[0]?.slice(0, 9), [
    "Created (UTC)",
    "Payment reference",
    "Linking reference",
    "Channel",
    "Status",
    "Amount (NGN)",
    "Amount paid (NGN)",
    "Amount to refund (NGN)",
    "Amount refunded (NGN)",
  ]);
  assert.deepEqual(rows[0]?.slice(9, 10), ["Customer name"], "the columns before fee, net and refundable stay where they were");
  assert.deepEqual(rows[0]?.slice(-5, -2), ["Fee (NGN)", "Net (NGN)", "Refundable (NGN)"]);
  const expected = (await listPayments({ merchantId: m.merchantId, mode: "test" }, { channel: "TRANSFER" }, { limit: 200 })).items.map(
    (p) => p.paymentReference,
  );
  assert.deepEqual(
    rows.slice(1).map((r) => r[1]),
    expected,
  );
  assert.ok(rows.slice(1).every((r) => r[3] === "TRANSFER" && r[4] === "PENDING" && /^\d+\.\d\d$/.test(r[5] ?? "")));
  assert.ok(rows.slice(1).every((r) => r.length === rows[0]?.length));

  const none = await exportPayments({ merchantId: m.merchantId, mode: "test" }, { status: "FAILED" });
  assert.equal(none.total, 0);
  assert.equal((await collect(none.chunks)).join("").split("\r\n").filter(Boolean).length, 1, "only the header");
});

test("a sale at 00:30 in Lagos is under that Lagos day, and the sheet says so in Lagos time beside UTC", async () => {
  // 23:30 UTC on 24 Nov is 00:30 on 25 Nov in Lagos (UTC+1, no daylight saving): the filters count Lagos days.
  const reference = await payment(
    Date.UTC(2025, 10, 24, 23, 30),
    transferBody("", { paymentReference: newReference("wat"), amount: "700" }),
  );
  const day = await exportPayments({ merchantId: m.merchantId, mode: "test" }, { from: "2025-11-25", to: "2025-11-25" });
  const [header, row, ...rest] = parseCsv((await collect(day.chunks)).join(""));
  assert.equal(rest.length, 0, "only the one sale of that Lagos day");
  assert.deepEqual(header?.slice(-5), ["Fee (NGN)", "Net (NGN)", "Refundable (NGN)", "Created (Lagos time)", "Paid (Lagos time)"]);
  assert.equal(row?.[1], reference);
  assert.equal(row?.[0], "2025-11-24T23:30:00.000Z");
  assert.deepEqual(row?.slice(-2), ["2025-11-25 00:30:00", ""], "created in Lagos time; not paid, so no paid time");
});

test("between batches the one connection serves others, and rows written meanwhile do not disturb the walk", async () => {
  const before = await countPayments({ merchantId: m.merchantId, mode: "test" }, {});
  const running = await exportPayments({ merchantId: m.merchantId, mode: "test" }, {}, 4);
  const first = await running.chunks.next();
  assert.equal(first.done, false);
  let rows = 0;
  for (let step = await running.chunks.next(); !step.done; step = await running.chunks.next()) {
    rows += step.value.split("\r\n").filter(Boolean).length;
    // A request landing mid-export: a write and a read on the same connection.
    await payment(Date.now(), ussdBody("", { paymentReference: newReference("mid") }));
    assert.ok((await countPayments({ merchantId: m.merchantId, mode: "test" }, {})) > before);
  }
  assert.equal(rows, before, "newer payments sort before the walk's position, so each old row comes once");
});

test("cells are quoted when needed, and a customer-typed formula is never run by a spreadsheet", async () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('Obi, "Ada"'), '"Obi, ""Ada"""');
  assert.equal(csvField("=1+2"), "'=1+2");
  assert.equal(csvField("@SUM(A1)"), "'@SUM(A1)");
  // A negative amount stays a number a sum adds; anything more after the minus is defused.
  assert.equal(csvField("-280.00"), "-280.00");
  assert.equal(csvField("-33333.33"), "-33333.33");
  assert.equal(csvField("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0");
  assert.equal(csvField("-1e3"), "'-1e3");
  assert.equal(csvField("two\r\nlines"), "two lines");

  const ref = await payment(
    Date.now() + 10_000,
    ussdBody("", { paymentReference: newReference("formula"), fullName: '=HYPERLINK("http://evil.example","Ada")' }),
  );
  const text = (await collect((await exportPayments({ merchantId: m.merchantId, mode: "test" }, { search: ref })).chunks)).join("");
  const [, row] = parseCsv(text);
  assert.equal(row?.[1], ref);
  assert.equal(row?.[9], `'=HYPERLINK("http://evil.example","Ada")`);
});

test("fee and net as the payment's page has them from its books, and what is still refundable, in every row", async () => {
  const shop = await createTestMerchant("Export Money Store");
  const token = await tokenFor(owo, shop);
  const scope = { merchantId: shop.merchantId, mode: "test" as const };
  const paid = async (amount: string, pay: string) => {
    const body = transferBody(shop.publicKey, { amount });
    assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token, body })).status, 200);
    const simulated = await call(owo, "POST", `/api/v2/sandbox/payments/${body.paymentReference}/simulate`, {
      token,
      body: { outcome: "pay", amount: pay },
    });
    assert.equal(simulated.status, 200, simulated.text);
    return String(body.paymentReference);
  };
  const refunded = await paid("24000", "24000");
  const overpaid = await paid("1500", "2000");
  const open = await paid("5000", "1000");
  const res = await call(owo, "POST", `/api/v2/payments/${refunded}/refunds`, { token, body: { amount: "14000.00", reason: "returned" } });
  assert.equal(res.status, 200, res.text);
  await eventually("the refund processed", async () => (await findPayment(scope, refunded)).amountRefundedKobo === 1_400_000);
  // Late money: its fee is the merchant's, the money itself the customer's (in neither sales nor net).
  await call(owo, "POST", `/api/v2/sandbox/payments/${overpaid}/simulate`, { token, body: { outcome: "pay", amount: "1000" } });

  const rows = parseCsv((await collect((await exportPayments(scope, {}, 2)).chunks)).join(""));
  const money = Object.fromEntries(rows.slice(1).map((r) => [r[1], [...r.slice(5, 9), ...r.slice(-5, -2)]]));
  // Amount, paid, to refund, refunded, fee, net, refundable. ₦24,000 pays ₦460.00; ₦2,000 ₦30.00, the late ₦1,000 ₦15.00.
  assert.deepEqual(money, {
    [refunded]: ["24000.00", "24000.00", "0.00", "14000.00", "460.00", "9540.00", "10000.00"],
    [overpaid]: ["1500.00", "2000.00", "1000.00", "0.00", "45.00", "1955.00", "3000.00"],
    [open]: ["5000.00", "1000.00", "0.00", "0.00", "15.00", "985.00", "0.00"],
  });
  for (const ref of [refunded, overpaid, open]) {
    const p = await findPayment(scope, ref);
    const books = await paymentBooks(db(), p.id);
    assert.deepEqual(money[ref]?.slice(4, 6), [books.fee, books.net], `${ref}: the payment page's own figures`);
  }
});
