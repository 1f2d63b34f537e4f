// One payment's books as its page shows them: the fees on every credit, what the merchant keeps, what is owed back.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { credit, openTransfer } from "../testing/in-process-payments";
import { paymentWithTimeline } from "../payments/timeline";
import { write } from "../../db/client";
import { findPayment } from "../payments/lookup";
import { parseAmount } from "../money";
import { bookChargeback } from "./payment-entries";

let owo: Owo;
before(async () => (owo = await startOwo()));
after(() => owo.stop());

test("a paid payment and late money: fee on both, net is the sale less all fees, the late money is owed back", async () => {
  const m = await createTestMerchant();
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, "https://shop.example.ng/owo/callback");
  const before = await paymentWithTimeline({ merchantId: m.merchantId, mode: "test" }, paymentReference);
  assert.deepEqual(before.books, { fee: "0.00", net: "0.00", owedBack: "0.00", deducted: "0.00", entries: [] });

  await credit(accountNumber, 1500_00);
  await credit(accountNumber, 500_00);
  const { books, payments } = await paymentWithTimeline({ merchantId: m.merchantId, mode: "test" }, paymentReference);
  // The sandbox bank's schedule: 1.5% of each credit.
  assert.equal(books.fee, "30.00");
  assert.equal(books.fee, payments.feeAmount, "the page's fee is verify's feeAmount");
  assert.equal(books.net, "1470.00");
  assert.equal(books.owedBack, "500.00");
  assert.deepEqual(
    books.entries.map((e) => e.kind),
    ["credit", "late_credit"],
  );
  assert.deepEqual(books.entries[0]?.postings, [
    { account: "provider:sandbox", debit: "1500.00", credit: null },
    { account: "sales", debit: null, credit: "1500.00" },
    { account: "fees", debit: "22.50", credit: null },
    { account: "provider:sandbox", debit: null, credit: "22.50" },
  ]);

  const other = await createTestMerchant();
  await assert.rejects(paymentWithTimeline({ merchantId: other.merchantId, mode: "test" }, paymentReference), /not found|No payment/i);
});

test("a provider's deduction on a payment is its own figure, so paid − fee − refunded − deducted reads as the net", async () => {
  const m = await createTestMerchant();
  const scope = { merchantId: m.merchantId, mode: "test" as const };
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, "https://shop.example.ng/owo/callback");
  await credit(accountNumber, 1500_00);
  const paid = await findPayment(scope, paymentReference);
  await write((tx) => bookChargeback(tx, paid, 200_00, Date.now()));
  const { books, payments } = await paymentWithTimeline(scope, paymentReference);
  assert.equal(books.deducted, "200.00");
  assert.equal(books.net, "1277.50"); // 1500.00 − 22.50 − 200.00
  const kobo = (naira: string) => parseAmount(naira) ?? NaN;
  assert.equal(kobo(payments.amountPaid) - kobo(books.fee) - kobo(payments.amountRefunded) - kobo(books.deducted), kobo(books.net));
});
