// The SeerBit connector against the SeerBit double (its own process, written from SeerBit's documents and as strict
// as they are: ./double.ts), over real HTTP: the token step, both channels, the query and its codes, the fee and
// the base amount, refusals in SeerBit's shapes, refunds at POST /api/v2/payments/refunds, and the notice with its
// acknowledgement reference.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { bankByCode, type Bank } from "../banks";
import { ProviderRefused, ProviderUnavailable, type IssueRequest, type ProviderAccount } from "../connector";
import { openApiCheck } from "../test-double/openapi-check";
import { seerbit } from "./connector";

const KEYS = { publicKey: "SBTESTPUBK_connector_test", secretKey: "SBTESTSECK_connector_test" };
let merchantBears: DoubleProcess;
let customerBears: DoubleProcess;
let unapproved: DoubleProcess;
const account = (d: DoubleProcess, id = "prv_seerbit_test"): ProviderAccount => ({
  id,
  provider: "seerbit",
  baseUrl: d.url,
  credentials: KEYS,
});

before(async () => {
  const flags = { "public-key": KEYS.publicKey, "secret-key": KEYS.secretKey };
  [merchantBears, customerBears, unapproved] = await Promise.all([
    spawnDouble("seerbit", flags),
    spawnDouble("seerbit", { ...flags, "fee-bearer": "customer" }),
    spawnDouble("seerbit", { ...flags, refunds: "not-approved" }),
  ]);
});
after(() => Promise.all([merchantBears.stop(), customerBears.stop(), unapproved.stop()]));

let n = 0;
function request(channel: "USSD" | "TRANSFER", amountKobo = 250_050, bank = "044"): IssueRequest {
  return {
    channel,
    reference: `owo_${process.pid}_${++n}`,
    amountKobo,
    currency: "NGN",
    ...(channel === "USSD" ? { bank: bankByCode(bank) as Bank } : {}),
    customer: { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "08012345678" },
    merchantName: "Demo Store",
    expiresAt: Date.now() + 20 * 60_000,
    noticeUrl: "https://owo.example.ng/api/v2/providers/prv_x/notices",
  };
}
const quick = () => AbortSignal.timeout(10_000);
const control = async (d: DoubleProcess, path: string, body?: unknown) =>
  (await fetch(`${d.url}/_double${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) })).json();
const requests = async (d: DoubleProcess) => ((await control(d, "/requests")) as { requests: string[] }).requests;

test("USSD: SeerBit's dial code under its linkingReference; S20 is pending; paid, the query credits what was asked and the whole fee is the merchant's", async () => {
  const acct = account(merchantBears);
  const req = request("USSD", 250_050, "058");
  const issued = await seerbit.issue(acct, req, quick());
  assert.ok(issued.channel === "USSD");
  assert.match(issued.dialCode, /^\*737\*000\*\d{4}#$/);
  assert.match(issued.providerReference, /^CSEERBIT\d{20}$/);
  assert.deepEqual(await seerbit.query(acct, req.reference, quick()), {
    state: "pending",
    amountKobo: 0,
    currency: "NGN",
    providerReference: issued.providerReference,
  });
  await control(merchantBears, `/transactions/${req.reference}/pay`, {});
  const paid = await seerbit.query(acct, req.reference, quick());
  // 1.5% of ₦2,500.50 is ₦37.5075: ₦37.51, rounded half up to the kobo.
  assert.deepEqual([paid.state, paid.amountKobo, paid.chargedKobo, paid.feeKobo], ["paid", 250_050, 250_050, 3751]);
  assert.ok(paid.paidAt && Math.abs(paid.paidAt - Date.now()) < 60_000, "the paid-at time read as Lagos time");
});

test("TRANSFER with the customer bearing the fee: the account as SeerBit answers it; the credit is the amount asked and the merchant's fee is 0", async () => {
  const acct = account(customerBears);
  const req = request("TRANSFER", 1_000_000);
  const issued = await seerbit.issue(acct, req, quick());
  assert.ok(issued.channel === "TRANSFER");
  assert.deepEqual([issued.bankName, issued.accountName, issued.providerReference], ["Providus Bank", "SeerBit", req.reference]);
  assert.match(issued.accountNumber, /^99\d{8}$/);
  await control(customerBears, `/transactions/${req.reference}/pay`, {});
  const paid = await seerbit.query(acct, req.reference, quick());
  assert.deepEqual([paid.state, paid.amountKobo, paid.chargedKobo, paid.feeKobo], ["paid", 1_000_000, 1_015_000, 0]);
});

test("a declined debit is S12, failed; an unknown reference is SeerBit's 500, never money", async () => {
  const acct = account(merchantBears);
  const req = request("USSD");
  await seerbit.issue(acct, req, quick());
  await control(merchantBears, `/transactions/${req.reference}/decline`, {});
  assert.equal((await seerbit.query(acct, req.reference, quick())).state, "failed");
  await assert.rejects(seerbit.query(acct, "owo_never_issued", quick()), ProviderUnavailable);
});

test("SeerBit's refusals: a reused reference (S18), under ₦100 (S7), wrong keys (400) — final; a 5xx is unavailable", async () => {
  const acct = account(merchantBears);
  const req = request("TRANSFER");
  await seerbit.issue(acct, req, quick());
  await assert.rejects(seerbit.issue(acct, req, quick()), (e: unknown) => e instanceof ProviderRefused && /S18/.test(e.message));
  await assert.rejects(
    seerbit.issue(acct, request("TRANSFER", 9_999), quick()),
    (e: unknown) => e instanceof ProviderRefused && /S7/.test(e.message),
  );
  const wrong = { ...acct, id: "prv_wrong", credentials: { ...KEYS, secretKey: "SBTESTSECK_not_the_key" } };
  await assert.rejects(seerbit.testConnection(wrong, quick()), ProviderRefused);
  await seerbit.testConnection(acct, quick());
  await fetch(`${merchantBears.url}/_double/faults`, { method: "POST", body: JSON.stringify({ kind: "5xx", path: "/api/v2/payments" }) });
  await assert.rejects(seerbit.issue(acct, request("TRANSFER"), quick()), ProviderUnavailable);
});

test("one token serves every call (SeerBit gives no expiry); once SeerBit answers 401 it is renewed once and the call goes through", async () => {
  const acct = account(merchantBears, "prv_token_test");
  const before = (await requests(merchantBears)).filter((r) => r.endsWith("/encrypt/keys")).length;
  const req = request("TRANSFER");
  await seerbit.issue(acct, req, quick());
  await seerbit.query(acct, req.reference, quick());
  await seerbit.query(acct, req.reference, quick());
  const tokensAsked = async () => (await requests(merchantBears)).filter((r) => r.endsWith("/encrypt/keys")).length - before;
  assert.equal(await tokensAsked(), 1);
  await control(merchantBears, "/tokens/revoke", {});
  assert.equal((await seerbit.query(acct, req.reference, quick())).state, "pending");
  assert.equal(await tokensAsked(), 2);
});

test("refunds at POST /api/v2/payments/refunds: processed on data.code 00; more than is left, S12 and an unapproved merchant are refusals", async () => {
  const acct = account(merchantBears);
  const req = request("USSD", 500_000);
  await seerbit.issue(acct, req, quick());
  await control(merchantBears, `/transactions/${req.reference}/pay`, {});
  const refund = (amountKobo: number, a = acct, reference = req.reference) =>
    seerbit.refund?.(a, { reference, providerReference: "", amountKobo, refundReference: `RFD${++n}`, reason: "one item back" }, quick());
  assert.deepEqual(await refund(200_000), { refundId: `RFD${n}`, state: "processed" });
  await assert.rejects(
    refund(300_001) ?? Promise.resolve(),
    (e: unknown) => e instanceof ProviderRefused && /more than is left/.test(e.message),
  );
  await fetch(`${merchantBears.url}/_double/faults`, { method: "POST", body: JSON.stringify({ kind: "refund-fails" }) });
  await assert.rejects(refund(100_000) ?? Promise.resolve(), (e: unknown) => e instanceof ProviderRefused && /S12/.test(e.message));
  const other = account(unapproved);
  const elsewhere = request("TRANSFER");
  await seerbit.issue(other, elsewhere, quick());
  await control(unapproved, `/transactions/${elsewhere.reference}/pay`, {});
  await assert.rejects(
    refund(1_000, other, elsewhere.reference) ?? Promise.resolve(),
    (e: unknown) => e instanceof ProviderRefused && /403/.test(e.message),
  );
});

test("a SeerBit notice reads as a hint naming Owo's reference, the charged amount and its code; the answer echoes its X-Expected-Ack-Reference", () => {
  const body = Buffer.from(
    JSON.stringify({
      notificationItems: [
        {
          notificationRequestItem: {
            eventType: "transaction",
            eventId: "evt1",
            data: { reference: "owo_1", amount: 1015.5, code: "00", currency: "NGN" },
          },
        },
      ],
    }),
  );
  assert.deepEqual(seerbit.readNotice(account(merchantBears), body, {}), {
    kind: "payment",
    eventId: "evt1",
    reference: "owo_1",
    outcome: "paid",
    amountKobo: 101_550,
    currency: "NGN",
  });
  assert.deepEqual(seerbit.acknowledgeNotice?.({ "x-expected-ack-reference": "ack-123" }), { ackReference: "ack-123", status: "received" });
  assert.throws(() => seerbit.readNotice(account(merchantBears), Buffer.from("not json"), {}), /notificationItems/);
});

test("SeerBit's own published answers, armed at the double, read as SeerBit means them: S20 pending, S12 refused, 500 unavailable, 401 renewed once", async () => {
  const acct = account(merchantBears, "prv_samples");
  const arm = (path: string, sample: string) =>
    fetch(`${merchantBears.url}/_double/answers`, { method: "POST", body: JSON.stringify({ path, sample }) });
  const req = request("TRANSFER");
  await seerbit.issue(acct, req, quick());
  await control(merchantBears, `/transactions/${req.reference}/pay`, {});
  await arm("/api/v3/payments/query", "query-pending");
  assert.equal((await seerbit.query(acct, req.reference, quick())).state, "pending", "the OpenAPI CheckStatus example (S20)");
  assert.equal((await seerbit.query(acct, req.reference, quick())).state, "paid", "one answer only: then the double's own record");
  await arm("/api/v2/payments/initiates", "initiate-s12");
  await assert.rejects(
    seerbit.issue(acct, request("TRANSFER"), quick()),
    (e: unknown) => e instanceof ProviderRefused && /S12/.test(e.message),
  );
  await arm("/api/v2/payments/initiates", "server-error");
  await assert.rejects(seerbit.issue(acct, request("TRANSFER"), quick()), ProviderUnavailable);
  await arm("/api/v3/payments/query", "unauthorized");
  await arm("/api/v3/payments/query", "unauthorized");
  await assert.rejects(seerbit.query(acct, req.reference, quick()), (e: unknown) => e instanceof ProviderRefused && /401/.test(e.message));
  assert.equal((await seerbit.query(acct, req.reference, quick())).state, "paid");
});

const document = openApiCheck("seerbit-openapi.yml");
test(
  "SeerBit's OpenAPI document (seerbit/openapi specs/external-api.yml) is held to every request the double gets: what it types is checked",
  { skip: document.source === null && "SKIPPED: ../shared/providers/seerbit-openapi.yml is absent, so the OpenAPI check was not run" },
  async () => {
    assert.match(document.check("POST", "/api/v2/encrypt/keys", {}) ?? "", /must have required property 'key'/);
    assert.match(document.check("POST", "/api/v2/payments/initiates", ["not", "an", "object"]) ?? "", /must be object/);
    assert.equal(document.check("POST", "/api/v2/encrypt/keys", { key: "a.b" }), null);
    const state = (await control(merchantBears, "")) as { openApiDocument: string | null };
    assert.match(state.openApiDocument ?? "", /seerbit-openapi\.yml$/, "the double runs with the document");
    const res = await fetch(`${merchantBears.url}/api/v2/encrypt/keys`, { method: "POST", body: JSON.stringify({ key: 42 }) });
    assert.deepEqual([res.status, ((await res.json()) as { message: string }).message], [400, "Bad Request: /key must be string"]);
  },
);
