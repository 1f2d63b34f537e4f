// Contract: every sample answer and webhook on Paystack's pages (copied into ./fixtures with the page they come from)
// goes through the connector's readers, and reads as Paystack means it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { NoticeRejected, ProviderRefused, ProviderUnavailable, type ProviderAccount } from "../connector";
import { paystack } from "./connector";
import {
  lastPage,
  readBalanceAnswer,
  readBankList,
  readChargeAnswer,
  readRefundAnswer,
  readRefundList,
  readVerifyAnswer,
  refusal,
} from "./wire";
import { readWebhook } from "./notices";
import { paystackSignature } from "./signature";

type Fixture = { source: string; copiedFrom: string; status: number; body: unknown };
const dir = join(import.meta.dirname, "fixtures");
const fixture = (name: string): Fixture => JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Fixture;

const account: ProviderAccount = {
  id: "prv_contract",
  provider: "paystack",
  baseUrl: "https://api.paystack.co",
  credentials: { secretKey: "sk_test_contract" },
};

/** The webhook as Paystack would send it: these bytes, signed with the account's secret key. */
function notice(name: string) {
  const raw = Buffer.from(JSON.stringify(fixture(name).body));
  return paystack.readNotice(account, raw, { "x-paystack-signature": paystackSignature(raw, "sk_test_contract") });
}

test("every fixture names the Paystack page it was copied from", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  assert.ok(files.length >= 26);
  for (const f of files) {
    const fx = fixture(f.replace(/\.json$/, ""));
    assert.match(fx.source, /^https:\/\/(paystack\.com\/docs|support\.paystack\.com)\//, f);
    assert.match(fx.copiedFrom, /^github\.com\/PaystackOSS\//, f);
  }
});

test("USSD charge answers (API reference and the USSD guide) give the dial code and Paystack's reference", () => {
  assert.deepEqual(readChargeAnswer("USSD", 200, fixture("charge-ussd").body), {
    channel: "USSD",
    providerReference: "2ofkbk0yie6dvzb",
    dialCode: "*737*33*4*453441#",
  });
  assert.deepEqual(readChargeAnswer("USSD", 200, fixture("charge-ussd-guide").body), {
    channel: "USSD",
    providerReference: "yjr1r8rwhedara4",
    dialCode: "*737*33*4*18791#",
  });
});

test("the bank_transfer charge answer gives the temporary account, its name, its bank and its expiry", () => {
  assert.deepEqual(readChargeAnswer("TRANSFER", 200, fixture("charge-bank-transfer").body), {
    channel: "TRANSFER",
    providerReference: "kcvu0t3kzs",
    accountNumber: "1260257501",
    bankName: "Test Bank",
    accountName: "TEST-MANAGED-ACCOUNT",
    expiresAt: Date.parse("2025-04-24T16:40:57.954Z"),
  });
});

test("a charge answer that issued nothing usable is ProviderUnavailable, a 4xx in Paystack's words ProviderRefused", () => {
  assert.throws(() => readChargeAnswer("USSD", 200, fixture("charge-pending-reference-check").body), ProviderUnavailable);
  assert.throws(() => readChargeAnswer("TRANSFER", 200, fixture("charge-ussd").body), ProviderUnavailable);
  const refused = fixture("charge-refused");
  assert.equal(refusal(refused.status, refused.body), "refused (400): Email address is required for association with card");
  assert.throws(() => readChargeAnswer("USSD", refused.status, refused.body), ProviderRefused);
});

test("verify: a success credits the amount asked at Paystack's paid_at, the customer's fee is not the merchant's; 'Invalid key' is a refusal", () => {
  const v = fixture("verify-success");
  // Paystack's own sample: amount 40333 = requested_amount 30050 + fees 10283 the customer bore; the merchant pays none.
  assert.deepEqual(readVerifyAnswer(v.status, v.body), {
    state: "paid",
    providerReference: "re4lyvq3s3",
    amountKobo: 30050,
    chargedKobo: 40333,
    feeKobo: 0,
    currency: "NGN",
    paidAt: Date.parse("2024-08-22T09:15:02.000Z"),
  });
  const as = (status: string) => {
    const body = structuredClone(v.body) as { data: Record<string, unknown> };
    body.data.status = status;
    return readVerifyAnswer(200, body);
  };
  assert.deepEqual(
    ["failed", "abandoned", "reversed", "ongoing", "pending", "processing", "queued"].map((s) => as(s).state),
    ["failed", "pending", "reversed", "pending", "pending", "pending", "pending"],
  );
  // The merchant bearing the fee: nothing on top, all of `fees` is the merchant's.
  const merchantBears = structuredClone(v.body) as { data: Record<string, unknown> };
  Object.assign(merchantBears.data, { amount: 30050, requested_amount: 30050, fees: 551 });
  assert.deepEqual(
    [
      readVerifyAnswer(200, merchantBears).amountKobo,
      readVerifyAnswer(200, merchantBears).feeKobo,
      readVerifyAnswer(200, merchantBears).chargedKobo,
    ],
    [30050, 551, undefined],
  );
  assert.deepEqual([as("failed").amountKobo, as("ongoing").amountKobo], [0, 0]);
  const k = fixture("verify-invalid-key");
  assert.throws(
    () => readVerifyAnswer(k.status, k.body),
    (e: unknown) => e instanceof ProviderRefused && /Invalid key/.test(e.message),
  );
});

test("refund create and fetch answers give the refund id and its state", () => {
  const c = fixture("refund-create");
  assert.deepEqual(readRefundAnswer("POST /refund", c.status, c.body), { refundId: "3018284", state: "pending" });
  const f = fixture("refund-fetch");
  assert.deepEqual(readRefundAnswer("GET /refund", f.status, f.body), { refundId: "1", state: "processed" });
});

test("charge.success webhooks (USSD, transfer, card samples) read as credits in kobo with Paystack's paid time", () => {
  assert.deepEqual(notice("webhook-charge-success-ussd"), {
    kind: "payment",
    eventId: "charge.success:53561",
    reference: "2ofkbk0yie6dvzb",
    providerReference: "2ofkbk0yie6dvzb",
    outcome: "paid",
    amountKobo: 150000,
    currency: "NGN",
    at: Date.parse("2018-06-25T12:42:58.000Z"),
  });
  assert.deepEqual(notice("webhook-charge-success-transfer"), {
    kind: "payment",
    eventId: "charge.success:3104021987",
    reference: "zuz8ggd1ro",
    providerReference: "zuz8ggd1ro",
    outcome: "paid",
    amountKobo: 25000,
    currency: "NGN",
    at: Date.parse("2023-09-12T13:29:09.000Z"),
  });
  const card = notice("webhook-charge-success-card");
  assert.equal(card.kind === "payment" && card.amountKobo, 10000);
});

test("List Refunds reads each record with its transaction, amount and note; retry answers processing, or Paystack's 422 as a refusal", () => {
  const l = fixture("refund-list");
  const listed = readRefundList(l.status, l.body);
  // This older sample names the transaction only by id; Paystack's OpenAPI RefundListResponse (what the double
  // answers) adds transaction_reference, which findRefund matches on: without it a record is never taken for Owo's.
  assert.deepEqual(
    listed.refunds.map((r) => [r.id, r.status, r.amount, r.transaction_reference]),
    [
      ["1", "processed", 500000, undefined],
      ["2", "pending", 500000, undefined],
    ],
  );
  // The sample carries no meta (the OpenAPI requires meta.pageCount): a page is then the last only when it is short.
  assert.deepEqual([listed.listed, listed.pageCount], [2, undefined]);
  assert.equal(lastPage(1, 100, listed.listed, listed.pageCount), true, "2 of 100 asked for: the last page");
  assert.equal(lastPage(1, 2, listed.listed, listed.pageCount), false, "a full page without meta may have more behind it");
  assert.equal(lastPage(1, 2, 2, 1), true, "meta.pageCount decides where Paystack gives it");
  const r = fixture("refund-retry");
  assert.deepEqual(readRefundAnswer("POST /refund/retry_with_customer_details", r.status, r.body), {
    refundId: "1234567",
    state: "pending",
  });
  const wrong = fixture("refund-retry-wrong-state");
  assert.throws(
    () => readRefundAnswer("POST /refund/retry_with_customer_details", wrong.status, wrong.body),
    (e: unknown) => e instanceof ProviderRefused && /needs-attention/.test(e.message),
  );
});

test("List Banks gives each bank's code, name and Paystack's own id (what the retry takes), and the next page's cursor", () => {
  const b = fixture("list-banks");
  const { banks, next } = readBankList(b.status, b.body);
  assert.deepEqual(banks[3], { code: "999992", name: "Paycom", providerBankId: "171" });
  assert.deepEqual(
    banks.map((x) => x.code),
    ["801", "559", "50457", "999992", "50746"],
  );
  assert.equal(next, "YmFuazoxNjk=");
});

test("refund webhooks: processed, failed and needs-attention move a refund (by its id where named, else transaction and amount); pending and processing do not", () => {
  assert.deepEqual(notice("webhook-refund-processed"), {
    kind: "refund",
    eventId: "refund.processed:T2154954_412829_3be32076_6lcg3:132013318360",
    providerReference: "T2154954_412829_3be32076_6lcg3",
    reference: "T2154954_412829_3be32076_6lcg3",
    amountKobo: 5000,
    state: "processed",
  });
  assert.deepEqual(notice("webhook-refund-failed"), {
    kind: "refund",
    eventId: "refund.failed:T9171231_412325_3be2736c_n6tml:TRF_9vgfawjnoz58uxy",
    providerReference: "T9171231_412325_3be2736c_n6tml",
    reference: "T9171231_412325_3be2736c_n6tml",
    amountKobo: 20000,
    state: "failed",
  });
  assert.deepEqual(notice("webhook-refund-needs-attention"), {
    kind: "refund",
    eventId: "refund.needs-attention:88bfa94509eb96aa9785641c26cc57cc:123456",
    refundId: "123456",
    providerReference: "88bfa94509eb96aa9785641c26cc57cc",
    reference: "88bfa94509eb96aa9785641c26cc57cc",
    amountKobo: 5306,
    state: "needs_attention",
  });
  for (const name of ["webhook-refund-pending", "webhook-refund-processing"]) assert.equal(notice(name).kind, "ignored", name);
  assert.equal(readWebhook(fixture("webhook-refund-needs-attention").body).kind, "refund");
});

test("charge.dispute.resolve with the transaction reversed reads as a chargeback of refund_amount; an open dispute is only recorded", () => {
  assert.deepEqual(notice("webhook-dispute-resolve"), {
    kind: "payment",
    eventId: "charge.dispute.resolve:358949",
    reference: "5qm4pv2mxs9rltp",
    providerReference: "5qm4pv2mxs9rltp",
    outcome: "reversed",
    amountKobo: 5700,
    currency: "NGN",
    // The key the settlement deducting the dispute's refund carries (List Refunds' `dispute`), so it is booked once.
    deduction: "dispute:358949",
  });
  for (const name of ["webhook-dispute-create", "webhook-dispute-remind"]) {
    const r = notice(name);
    assert.deepEqual(
      [r.kind, r.eventId, r.kind === "ignored" && r.reference],
      ["ignored", `charge.dispute.${name.slice(16)}:358950`, "v3mjfgbnc19v97x"],
    );
  }
  // Resolved for the merchant: the transaction stays a success and nothing is taken back.
  const won = structuredClone(fixture("webhook-dispute-resolve").body) as { data: { resolution: string; transaction: { status: string } } };
  won.data.resolution = "declined";
  won.data.transaction.status = "success";
  assert.equal(readWebhook(won).kind, "ignored");
});

test("bank.transfer.rejected (Paystack sends a wrong amount back itself) is recorded, never credited", () => {
  const r = notice("webhook-bank-transfer-rejected");
  assert.equal(r.kind, "ignored");
  assert.equal(r.eventId, "bank.transfer.rejected:3103959930");
  assert.match(r.kind === "ignored" ? r.why : "", /30000 kobo \(INCORRECT_AMOUNT/);
});

test("a webhook with no signature, a forged one, or one signed with another key is rejected before it is read", () => {
  const raw = Buffer.from(JSON.stringify(fixture("webhook-charge-success-ussd").body));
  assert.throws(() => paystack.readNotice(account, raw, {}), NoticeRejected);
  assert.throws(
    () => paystack.readNotice(account, raw, { "x-paystack-signature": paystackSignature(raw, "sk_test_other") }),
    NoticeRejected,
  );
  const tampered = Buffer.from(raw.toString().replace("150000", "1500000"));
  assert.throws(
    () => paystack.readNotice(account, tampered, { "x-paystack-signature": paystackSignature(raw, "sk_test_contract") }),
    NoticeRejected,
  );
});

test("test connection reads the balance sample as a good answer and Paystack's 401 as a refusal", () => {
  const b = fixture("balance");
  assert.doesNotThrow(() => readBalanceAnswer(b.status, b.body));
  assert.throws(
    () => readBalanceAnswer(401, { status: false, message: "Invalid key" }),
    (e: unknown) => e instanceof ProviderRefused && /Invalid key/.test(e.message),
  );
});
