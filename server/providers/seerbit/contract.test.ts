// Contract: the samples of the v2 API (API.md, which follows SeerBit's v2; copied into ./fixtures) read through the
// SeerBit connector's readers as SeerBit means them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ProviderRefused, ProviderUnavailable } from "../connector";
import { readInitiateAnswer, readNoticeBody, readRefundAnswer, readTokenAnswer, readVerifyAnswer, refusal } from "./records";

type Fixture = { source: string; status: number; body: unknown };
const fixture = (name: string): Fixture =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.json`), "utf8")) as Fixture;

test("the token answer gives the bearer token and when it dies", () => {
  assert.deepEqual(readTokenAnswer(200, fixture("token").body), { token: "<token>", expiresAt: Date.parse("2026-11-22T09:00:00.000Z") });
});

test("initiation answers: the dial code, the account and name, each under SeerBit's linkingReference", () => {
  assert.deepEqual(readInitiateAnswer("USSD", 200, fixture("initiate-ussd").body), {
    channel: "USSD",
    providerReference: "OWO72462256161858087",
    dialCode: "*901*000*48213906#",
    expiresAt: Date.parse("2026-11-21T10:10:00.000Z"),
  });
  assert.deepEqual(readInitiateAnswer("TRANSFER", 200, fixture("initiate-transfer").body), {
    channel: "TRANSFER",
    providerReference: "OWO72462256161858088",
    accountNumber: "9979878245",
    bankName: "Owo Sandbox Bank",
    accountName: "OWO(Demo Store)",
    expiresAt: Date.parse("2026-11-21T10:30:00.000Z"),
  });
  assert.throws(() => readInitiateAnswer("TRANSFER", 200, fixture("initiate-ussd").body), ProviderUnavailable);
});

test("the error envelope is a refusal naming SeerBit's code and message", () => {
  const e = fixture("error");
  assert.equal(refusal(e.status, e.body), "refused (400 S5): Invalid/Missing parameters = email, mobileNumber");
  assert.throws(
    () => readInitiateAnswer("USSD", e.status, e.body),
    (x: unknown) => x instanceof ProviderRefused && /400 S5/.test(x.message),
  );
});

test("verify: SUCCESSFUL and PARTIALLY_PAID are money received (amountPaid in kobo, in all); each other status keeps its meaning", () => {
  const v = fixture("verify");
  assert.deepEqual(readVerifyAnswer(200, v.body), {
    state: "paid",
    providerReference: "OWO72462256161858088",
    amountKobo: 150000,
    currency: "NGN",
    paidAt: Date.parse("2026-11-21T10:00:00.000Z"),
  });
  const as = (status: string, amountPaid = "0.00") => {
    const body = structuredClone(v.body) as { data: { payments: Record<string, unknown> } };
    Object.assign(body.data.payments, { status, amountPaid, paidAt: null });
    return readVerifyAnswer(200, body);
  };
  assert.deepEqual(
    [as("PENDING").state, as("PARTIALLY_PAID", "700.50").state, as("PARTIALLY_PAID", "700.50").amountKobo],
    ["pending", "paid", 70050],
  );
  assert.deepEqual([as("FAILED").state, as("CANCELLED").state, as("EXPIRED").state], ["failed", "failed", "expired"]);
  assert.equal(
    readVerifyAnswer(404, { status: "ERROR", data: { code: "S404", message: "no such payment", errors: [] } }).state,
    "not_found",
  );
});

test("the callback sample reads as a credit of the running total, under its eventId", () => {
  assert.deepEqual(readNoticeBody(fixture("callback").body), {
    kind: "payment",
    eventId: "evt_3k9x",
    reference: "ord-1001",
    providerReference: "OWO72462256161858087",
    outcome: "paid",
    amountKobo: 150000,
    currency: "NGN",
    at: Date.parse("2026-11-21T10:00:00.000Z"),
  });
});

test("the refund answer: accepted and PENDING, under the refundReference Owo sent", () => {
  const r = fixture("refund-accepted");
  assert.deepEqual(readRefundAnswer(r.status, r.body), { refundId: "RFD20261121000001", state: "pending" });
  assert.throws(
    () => readRefundAnswer(409, { status: "ERROR", data: { code: "S15", message: "more than is refundable", errors: [] } }),
    ProviderRefused,
  );
});
