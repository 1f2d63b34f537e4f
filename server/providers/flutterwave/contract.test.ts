// Contract: every sample answer and webhook of Flutterwave's docs (./fixtures, each naming its page) read by the
// connector's own readers, with the values a merchant would see from them.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { NoticeRejected, type ProviderAccount } from "../connector";
import { flutterwave } from "./connector";
import { readRefund, readRefundList, readTransaction, readTransactionId, readTransferCharge, readUssdCharge, UnusableAnswer } from "./wire";

type Fixture = { source: string; copiedFrom?: string; httpStatus?: number; body: unknown };
const dir = new URL("./fixtures/", import.meta.url);
function fixture(name: string): Fixture {
  return JSON.parse(readFileSync(new URL(name, dir), "utf8")) as Fixture;
}

const account: ProviderAccount = {
  id: "prv_contract",
  provider: "flutterwave",
  baseUrl: "http://127.0.0.1:9",
  credentials: { secretKey: "FLWSECK_TEST-x", secretHash: "my-secret-hash" },
};

test("every fixture names the Flutterwave doc page it was taken from", () => {
  const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  assert.ok(names.length >= 9);
  for (const n of names) {
    assert.match(fixture(n).source, /^https:\/\/developer\.flutterwave\.com\//, n);
    // A sample taken from the official SDK's documentation names the commit and section it was copied from.
    const from = fixture(n).copiedFrom;
    if (from !== undefined) assert.match(from, /^github\.com\/Flutterwave\/Node-v3@[0-9a-f]{40}\/documentation\/\w+\.md#[\w-]+$/, n);
  }
});

test("USSD charge sample: the dial code is meta.authorization.note exactly, the provider reference is flw_ref", () => {
  assert.deepEqual(readUssdCharge(fixture("ussd-charge.json").body), {
    channel: "USSD",
    providerReference: "flwm3s4m0c1691591875526",
    dialCode: "*566*002*4517159#",
  });
});

test("bank transfer sample: the account, its bank and expiry come from meta.authorization; transfer_reference is the flw_ref", () => {
  assert.deepEqual(readTransferCharge(fixture("bank-transfer-charge.json").body, "Ada Stores"), {
    channel: "TRANSFER",
    providerReference: "MockFLWRef-1689847855598",
    accountNumber: "0067100155",
    bankName: "Mock Bank",
    accountName: "Ada Stores",
    expiresAt: 1689847855598,
  });
  const named = structuredClone(fixture("bank-transfer-charge.json").body) as { meta: { authorization: Record<string, unknown> } };
  named.meta.authorization.transfer_note = "Please make a bank transfer to Flutterwave Developers";
  named.meta.authorization.account_expiration = "2020-04-28 13:00:00";
  const read = readTransferCharge(named, "Ada Stores");
  assert.equal(read.accountName, "Flutterwave Developers");
  assert.equal(read.expiresAt, Date.parse("2020-04-28T12:00:00Z"), "older pages write Lagos time");
});

test("verify samples: a successful transaction in kobo, its app_fee the merchant's, and the not-found envelope", () => {
  const ok = fixture("verify-successful.json");
  assert.deepEqual(readTransaction(ok.httpStatus ?? 200, ok.body, "LiveCardTest"), {
    state: "paid",
    providerReference: "YemiDesola/FLW275407301",
    amountKobo: 10000,
    feeKobo: 140,
    currency: "NGN",
  });
  // The customer bearing the fee: charged_amount adds it on top; the credit is the amount asked, the merchant pays none.
  const borne = structuredClone(ok.body) as { data: Record<string, unknown> };
  Object.assign(borne.data, { charged_amount: 101.4 });
  const read = readTransaction(200, borne, "LiveCardTest");
  assert.deepEqual([read.amountKobo, read.chargedKobo, read.feeKobo], [10000, 10140, 0]);
  assert.equal(readTransactionId(ok.body), "288200108");
  assert.throws(() => readTransaction(200, ok.body, "SomeoneElsesRef"), UnusableAnswer, "an answer about another tx_ref is never believed");
  const missing = fixture("verify-not-found.json");
  assert.deepEqual(readTransaction(missing.httpStatus ?? 400, missing.body, "LiveCardTest"), {
    state: "not_found",
    amountKobo: 0,
    currency: "NGN",
  });
});

test("paid-at: a bank transfer's record comes to life when the money arrives, so its created_at decides; a USSD record's does not", () => {
  const transfer = fixture("webhook-bank-transfer.json").body as { data: Record<string, unknown> };
  const asVerify = (data: Record<string, unknown>) => ({ status: "success", message: "Transaction fetched successfully", data });
  assert.equal(readTransaction(200, asVerify(transfer.data), "order_1736846575470").paidAt, Date.parse("2025-01-14T09:23:03.000Z"));
  // Pending, there is no money to date.
  assert.equal(readTransaction(200, asVerify({ ...transfer.data, status: "pending" }), "order_1736846575470").paidAt, undefined);
  // The USSD charge's record exists from the charge (created_at while pending): paid later, its created_at is no paid-at.
  const ussd = (fixture("ussd-charge.json").body as { data: Record<string, unknown> }).data;
  const paid = readTransaction(200, asVerify({ ...ussd, status: "successful" }), "MC-15852309v5050e8");
  assert.deepEqual([paid.state, paid.paidAt], ["paid", undefined]);
});

test("webhook samples: with verif-hash or flutterwave-signature they become payments; a wrong or missing one is rejected", () => {
  for (const [name, reference, providerReference, amountKobo] of [
    ["webhook-card-completed.json", "Links-616626414629", "PeterEkene/FLW270177170", 10000],
    ["webhook-bank-transfer.json", "order_1736846575470", "8016915561111736846576262", 5000000],
  ] as const) {
    const raw = Buffer.from(JSON.stringify(fixture(name).body));
    const reading = flutterwave.readNotice(account, raw, { "verif-hash": "my-secret-hash" });
    assert.equal(reading.kind, "payment", name);
    if (reading.kind !== "payment") continue;
    assert.equal(reading.reference, reference);
    assert.equal(reading.providerReference, providerReference);
    assert.equal(reading.outcome, "paid");
    assert.equal(reading.amountKobo, amountKobo);
    assert.equal(reading.currency, "NGN");
    assert.match(reading.eventId, /^flutterwave:\d+:successful$/);
    assert.throws(() => flutterwave.readNotice(account, raw, { "verif-hash": "my-secret-hasH" }), NoticeRejected);
    assert.throws(() => flutterwave.readNotice(account, raw, {}), NoticeRejected);
    // The signed form: base64 HMAC-SHA256 of these bytes keyed with the secret hash (developer.flutterwave.com/docs/webhooks).
    const signed = createHmac("sha256", "my-secret-hash").update(raw).digest("base64");
    assert.equal(flutterwave.readNotice(account, raw, { "flutterwave-signature": signed }).kind, "payment");
    const forged = createHmac("sha256", "not-the-hash").update(raw).digest("base64");
    assert.throws(() => flutterwave.readNotice(account, raw, { "flutterwave-signature": forged }), NoticeRejected);
    assert.throws(
      () => flutterwave.readNotice(account, Buffer.concat([raw, Buffer.from(" ")]), { "flutterwave-signature": signed }),
      NoticeRejected,
      "the signature covers the exact bytes",
    );
  }
});

test("refund sample: completed and successful are processed, and the refund id is data.id", () => {
  assert.deepEqual(readRefund(fixture("refund-initiated.json").body), { refundId: "75923", state: "processed" });
  const as = (status: string) => {
    const body = structuredClone(fixture("refund-initiated.json").body) as { data: { status: string } };
    body.data.status = status;
    return readRefund(body).state;
  };
  assert.deepEqual(["successful", "completed-bank-transfer", "completed-mpgs", "processing", "pending-momo", "failed"].map(as), [
    "processed",
    "processed",
    "processed",
    "pending",
    "pending",
    "failed",
  ]);
});

test("a refund list without meta.page_info gives no page count: the lookup reads on until a page comes back empty", () => {
  const sample = fixture("refund-initiated.json").body as { data: Record<string, unknown> };
  const listed = readRefundList({ status: "success", message: "Refunds fetched", data: [sample.data] });
  assert.deepEqual([listed.refunds.map((r) => r.refundId), listed.listed, listed.totalPages], [["75923"], 1, undefined]);
  const paged = readRefundList({ status: "success", message: "Refunds fetched", data: [], meta: { page_info: { total_pages: 3 } } });
  assert.deepEqual([paged.listed, paged.totalPages], [0, 3]);
});

test("the official SDK's samples: verify by reference (the call Owo makes) and a refund answered completed at once", () => {
  const v = fixture("verify-by-reference.json");
  assert.deepEqual(readTransaction(200, v.body, "txref-DI0NzMx13"), {
    state: "paid",
    providerReference: "FLW-MOCK-3b10a512c4dae649e580a7e5747cfd2c",
    amountKobo: 250000,
    feeKobo: 3500,
    currency: "NGN",
  });
  assert.deepEqual(readRefund(fixture("refund-initiated-sdk.json").body), { refundId: "8612", state: "processed" });
});

test("the banks Flutterwave lists for USSD are served, others are not; transfers always are", () => {
  const bank = (bankCode: string) => ({ bankCode, bankName: bankCode, ussdCode: "*1#", nipCode: "000000" });
  assert.ok(flutterwave.serves("USSD", bank("058")));
  assert.ok(flutterwave.serves("USSD", bank("057")));
  assert.ok(!flutterwave.serves("USSD", bank("063")), "Access Bank (Diamond) is not on Flutterwave's list");
  assert.ok(!flutterwave.serves("USSD"));
  assert.ok(flutterwave.serves("TRANSFER"));
});
