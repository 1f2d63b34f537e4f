// Contract: SeerBit's own published sample answers (./fixtures, each naming its page or OpenAPI path, byte for byte)
// replayed through the connector's readers, for every call Owo makes: token, initiate (USSD, TRANSFER and its
// refusals), query (paid with a fee breakdown, pending, unknown), the error shapes, the refund, and the notices
// (transaction, virtual account, refund).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ProviderRefused, ProviderUnavailable } from "../connector";
import { readNoticeBody } from "./notices";
import { readInitiateAnswer, readQueryAnswer, readRefundAnswer, readTokenAnswer } from "./wire";

type Fixture = { source: string; status: number; body: unknown };
const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.json`), "utf8")) as Fixture;
const refusedWith = (pattern: RegExp) => (x: unknown) => x instanceof ProviderRefused && pattern.test(x.message);

test("the token: EncryptedSecKey.encryptedKey as the docs spell it, EncrytedSecKey as the OpenAPI example does; no expiry is needed", () => {
  const docs = fixture("token");
  assert.equal(
    readTokenAnswer(docs.status, docs.body),
    "SNt8kjeVjsdTG4lPlwg6sTvpVAay2RA7hoCEzHPkIQa+MNfDepx4VBr5JMgLb5Q5anq9XoN2pXU850bumqBWFVw1T1ZW5w8N+Sq/",
  );
  const openapi = fixture("token-openapi");
  assert.match(readTokenAnswer(openapi.status, openapi.body), /^oAX1OeAlwNt9/);
  const bad = {
    status: 400,
    body: { message: "Bad Request", error: "There has been a problem with reading or understanding the request." },
  };
  assert.throws(() => readTokenAnswer(bad.status, bad.body), refusedWith(/400 There has been a problem/));
});

test("USSD: the dial code under SeerBit's linkingReference (its providerreference is only the code's digits)", () => {
  const f = fixture("initiate-ussd");
  assert.deepEqual(readInitiateAnswer("USSD", "owo_1", f.status, f.body), {
    channel: "USSD",
    providerReference: "CSEERBIT724622561618580872054",
    dialCode: "*901*000*8206#",
  });
  assert.throws(() => readInitiateAnswer("TRANSFER", "owo_1", f.status, f.body), ProviderUnavailable, "a USSD answer is no account");
});

test("TRANSFER: the account and its name; the answer has no linkingReference, so its paymentReference is the reference", () => {
  const f = fixture("initiate-transfer");
  assert.deepEqual(readInitiateAnswer("TRANSFER", "owo_2", f.status, f.body), {
    channel: "TRANSFER",
    providerReference: "NGN0100067Q35",
    accountNumber: "9956411533",
    bankName: "Providus Bank",
    accountName: "SeerBit",
  });
});

test("initiate refusals: S12, S7 and S18 in a 200 SUCCESS envelope, and the 400/401/403 error shapes, are SeerBit saying no", () => {
  for (const [name, pattern] of [
    ["initiate-s12", /S12: Cant process .* must be unique/],
    ["initiate-s7", /S7: .*Amount cannot be less than 100.0/],
    ["initiate-s18", /S18: Transaction reference must be unique/],
    ["initiate-400", /400 INPUT: Payment Type cannot be null/],
    ["unauthorized", /401 INPUT: Invalid Authentication Token/],
    ["forbidden", /403 PERMISSION: Header Token Missing/],
  ] as const) {
    const f = fixture(name);
    assert.throws(() => readInitiateAnswer("USSD", "owo_3", f.status, f.body), refusedWith(pattern), name);
  }
});

test("query 00: credited with the amount asked (paymentBreakdown.amount), the charge and the merchant's fee by API.md's rule", () => {
  const f = fixture("query-paid");
  // The customer bore the fee here: 10.15 charged for 10.00 asked, fee 0.15 — none of it the merchant's.
  assert.deepEqual(readQueryAnswer(f.status, f.body), {
    state: "paid",
    providerReference: "SEERBIT1303494716633",
    currency: "NGN",
    amountKobo: 1000,
    chargedKobo: 1015,
    feeKobo: 0,
    paidAt: Date.parse("2024-12-06T15:18:36.404+01:00"),
  });
  // The merchant bearing it: charged what was asked, and the whole fee is the merchant's.
  const merchantBears = structuredClone(f.body) as { data: { payments: Record<string, unknown> } };
  Object.assign(merchantBears.data.payments, { amount: 10.0, paymentBreakdown: { amount: 10.0, fee: 0.15, total: 10.0 } });
  assert.deepEqual([readQueryAnswer(200, merchantBears).amountKobo, readQueryAnswer(200, merchantBears).feeKobo], [1000, 15]);
  // Charged less than its breakdown asks: credited what the customer paid, never more, and the fee is the merchant's.
  const short = structuredClone(f.body) as { data: { payments: Record<string, unknown> } };
  Object.assign(short.data.payments, { amount: 8.0, paymentBreakdown: { amount: 10.0, fee: 0.15, total: 8.0 } });
  assert.deepEqual([readQueryAnswer(200, short).amountKobo, readQueryAnswer(200, short).feeKobo], [800, 15]);
});

test("query codes: S20 and S0 are not paid yet, S12 failed; an unknown reference is SeerBit's 500 (unavailable, never paid)", () => {
  const pending = fixture("query-pending");
  assert.deepEqual(readQueryAnswer(pending.status, pending.body), {
    state: "pending",
    amountKobo: 0,
    currency: "NGN",
    providerReference: "F002672971602775508582",
  });
  const as = (code: string) => {
    const b = structuredClone(pending.body) as { data: { code: string } };
    b.data.code = code;
    return readQueryAnswer(200, b).state;
  };
  assert.deepEqual([as("S0"), as("S12"), as("S99")], ["pending", "failed", "pending"]);
  const missing = fixture("query-no-transaction");
  assert.throws(() => readQueryAnswer(missing.status, missing.body), ProviderUnavailable);
  const notFound = fixture("not-found");
  assert.equal(readQueryAnswer(notFound.status, notFound.body).state, "not_found");
});

test("refund: done only on data.code 00, under Owo's refundReference; any other code is a refusal", () => {
  const f = fixture("refund");
  assert.deepEqual(readRefundAnswer("RFD1", f.status, f.body), { refundId: "RFD1", state: "processed" });
  const other = structuredClone(f.body) as { data: { code: string } };
  other.data.code = "S12";
  assert.throws(() => readRefundAnswer("RFD1", 200, other), refusedWith(/S12/));
  const err = fixture("server-error");
  assert.throws(() => readRefundAnswer("RFD1", err.status, err.body), ProviderUnavailable);
});

test("notices: SeerBit's published transaction event reads as paid, its amount the number SeerBit sends with the fee in it; a virtual account's credit alike", () => {
  const f = fixture("notice-transaction");
  // ₦922.63 as a JSON number (₦13.63 of it the fee): read to kobo without a float's rounding.
  assert.deepEqual(readNoticeBody(f.body), {
    kind: "payment",
    eventId: "e1c98e0ba9364843b7fa8bd8df0e3bc1",
    reference: "SBT-T19824129237",
    outcome: "paid",
    amountKobo: 92263,
    currency: "NGN",
  });
  const failed = structuredClone(f.body) as { notificationItems: { notificationRequestItem: { data: { code: string } } }[] };
  const data = failed.notificationItems[0]?.notificationRequestItem.data;
  if (data) data.code = "S12";
  assert.deepEqual(readNoticeBody(failed), { ...readNoticeBody(f.body), outcome: "failed" });
  // Shares eventType "transaction" (the page says to tell it by creditAccountNumber); Owo issues no virtual accounts,
  // so its reference names no payment of Owo's and the notice goes on to the merchant's forwarding URL.
  const va = fixture("notice-virtual-account");
  assert.deepEqual(readNoticeBody(va.body), {
    kind: "payment",
    eventId: "88bf9852405143bd99502c378b316fdd",
    reference: "GT-012_SBT_9ADPCIV269",
    outcome: "paid",
    amountKobo: 10000,
    currency: "NGN",
  });
});

test("notices: a refund event is acknowledged and ignored (the refund's answer settled it); a non-notice is rejected", () => {
  const f = fixture("notice-refund");
  assert.deepEqual(readNoticeBody(f.body), {
    kind: "ignored",
    eventId: "0be677f841254a3eb92fab0d0b6ba232",
    reference: "IHrE1571828556059",
    why: "Owo does not act on SeerBit's refund notices",
  });
  assert.throws(() => readNoticeBody({ event: "charge.success" }), /not a SeerBit notificationItems notice/);
});
