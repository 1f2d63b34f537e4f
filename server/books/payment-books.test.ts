// One payment's books as its page shows them: the fees on every credit, what the merchant keeps, what is owed back.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { credit, openTransfer } from "../testing/in-process-payments";
import { paymentWithTimeline } from "../payments/timeline";

let owo: Owo;
before(async () => (owo = await startOwo()));
after(() => owo.stop());

test("a paid payment and late money: fee on both, net is the sale less all fees, the late money is owed back", async () => {
  const m = await createTestMerchant();
  const { paymentReference, accountNumber } = await openTransfer(m.merchantId, "https://shop.example.ng/owo/callback");
  const before = await paymentWithTimeline({ merchantId: m.merchantId, mode: "test" }, paymentReference);
  assert.deepEqual(before.books, { fee: "0.00", net: "0.00", owedBack: "0.00", entries: [] });

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
