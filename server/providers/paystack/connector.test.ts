// The Paystack connector against the Paystack double, run as its own process (`npm run double -- paystack`), over
// real HTTP: both channels, signed webhooks to a receiver, verify, refunds, and the double as strict as Paystack (its
// faults: ./connector-faults.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../../testing/eventually";
import { issueRequest, providerDouble } from "../../testing/provider-double";
import { bankByCode } from "../banks";
import { NoticeRejected, ProviderRefused } from "../connector";
import { paystack } from "./connector";

const secretKey = "sk_test_paystack_connector_test";
const ps = providerDouble(paystack, { secretKey }, { accountId: "prv_test", flags: { "refund-delay-ms": "20" } });
// Generous: a loaded machine must not turn an answer into a timeout.
const quick = () => AbortSignal.timeout(15_000);
let seq = 0; // the refused charges' references

test("serves TRANSFER, and USSD only for the banks whose short code is one of Paystack's ussd types", () => {
  assert.equal(paystack.serves("TRANSFER"), true);
  for (const code of ["058", "033", "232", "057"]) assert.equal(paystack.serves("USSD", bankByCode(code)), true, code);
  for (const code of ["044", "011", "070"]) assert.equal(paystack.serves("USSD", bankByCode(code)), false, code);
});

test("USSD: the dial code is Paystack's, the customer pays, the signed charge.success reads as a credit, verify agrees", async () => {
  const req = issueRequest("USSD");
  const issued = await paystack.issue(ps.account, req, quick());
  assert.equal(issued.providerReference, req.reference);
  assert.match(issued.channel === "USSD" ? issued.dialCode : "", /^\*737\*33\*4\*\d{6}#$/);
  assert.equal((await paystack.query(ps.account, req.reference, quick())).state, "pending");
  const from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${req.reference}/pay`)).status, 200);
  const { readings, raw } = await ps.webhooksAfter(from, 1);
  assert.match(String(raw[0]?.headers["x-paystack-signature"]), /^[0-9a-f]{128}$/);
  assert.deepEqual(
    { ...readings[0], eventId: "", at: 0 },
    {
      kind: "payment",
      eventId: "",
      reference: req.reference,
      providerReference: req.reference,
      outcome: "paid",
      amountKobo: 150000,
      currency: "NGN",
      at: 0,
    },
  );
  const state = await paystack.query(ps.account, req.reference, quick());
  assert.equal(state.state, "paid");
  assert.equal(state.amountKobo, 150000);
  assert.ok(state.paidAt && Math.abs(state.paidAt - Date.now()) < 10_000);
  const forged = Buffer.from(raw[0]?.raw.toString().replace('"amount":150000', '"amount":1500000') ?? "");
  assert.throws(() => paystack.readNotice(ps.account, forged, raw[0]?.headers ?? {}), NoticeRejected);
});

test("USSD decline: Paystack sends no webhook; verify reports the charge failed", async () => {
  const req = issueRequest("USSD");
  await paystack.issue(ps.account, req, quick());
  const from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${req.reference}/decline`)).status, 200);
  await ps.webhooksAfter(from, 0);
  assert.equal((await paystack.query(ps.account, req.reference, quick())).state, "failed");
});

test("TRANSFER: a temporary account; a wrong amount is sent back by Paystack (bank.transfer.rejected), the exact amount settles", async () => {
  const req = issueRequest("TRANSFER", 250000);
  const issued = await paystack.issue(ps.account, req, quick());
  assert.ok(issued.channel === "TRANSFER");
  assert.match(issued.accountNumber, /^\d{10}$/);
  assert.equal(issued.bankName, "Test Bank");
  assert.equal(issued.accountName, "TEST-MANAGED-ACCOUNT");
  assert.ok(issued.expiresAt && issued.expiresAt <= req.expiresAt);
  let from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${req.reference}/pay`, { amount: 100000 })).json.outcome, "reversed");
  const rejected = await ps.webhooksAfter(from, 1);
  assert.equal(rejected.readings[0]?.kind, "ignored");
  assert.equal((await paystack.query(ps.account, req.reference, quick())).state, "pending");
  from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${req.reference}/pay`, { amount: 300000 })).json.outcome, "reversed");
  await ps.webhooksAfter(from, 1);
  from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${req.reference}/pay`)).json.outcome, "paid");
  const paid = await ps.webhooksAfter(from, 1);
  assert.equal(paid.readings[0]?.kind === "payment" && paid.readings[0].amountKobo, 250000);
  const inspected = await ps.control("GET", `/transactions/${req.reference}`);
  assert.deepEqual(
    (inspected.json.reversals as { amount: number }[]).map((r) => r.amount),
    [100000, 300000],
  );
});

test("a charge left to lapse (abandoned) is only not paid yet; a transfer into the dead account is sent back (ACCOUNT_EXPIRED)", async () => {
  const ussd = issueRequest("USSD");
  await paystack.issue(ps.account, ussd, quick());
  assert.equal((await ps.control("POST", `/transactions/${ussd.reference}/expire`)).status, 200);
  // Paystack calls an unfinished charge abandoned long before a dial code is dead: Owo's own expiry decides.
  assert.deepEqual(await paystack.query(ps.account, ussd.reference, quick()), {
    state: "pending",
    providerReference: ussd.reference,
    amountKobo: 0,
    currency: "NGN",
  });
  assert.equal((await ps.control("POST", `/transactions/${ussd.reference}/pay`)).status, 409);
  const transfer = issueRequest("TRANSFER");
  await paystack.issue(ps.account, transfer, quick());
  await ps.control("POST", `/transactions/${transfer.reference}/expire`);
  const from = ps.received.length;
  assert.equal((await ps.control("POST", `/transactions/${transfer.reference}/pay`)).json.reason, "account expired");
  const { readings } = await ps.webhooksAfter(from, 1);
  assert.match(readings[0]?.kind === "ignored" ? readings[0].why : "", /ACCOUNT_EXPIRED/);
  assert.equal((await paystack.query(ps.account, transfer.reference, quick())).state, "pending");
});

test("the double is as strict as Paystack: wrong key, reused reference, non-integer kobo, unknown ussd.type", async () => {
  const req = issueRequest("USSD");
  await assert.rejects(
    paystack.issue({ ...ps.account, credentials: { secretKey: "sk_test_wrong" } }, req, quick()),
    (e: unknown) => e instanceof ProviderRefused && /401\): Invalid key/.test(e.message),
  );
  await paystack.issue(ps.account, req, quick());
  await assert.rejects(
    paystack.issue(ps.account, req, quick()),
    (e: unknown) => e instanceof ProviderRefused && /Duplicate Transaction Reference/.test(e.message),
  );
  const post = (body: unknown) =>
    fetch(`${ps.double.url}/charge`, {
      method: "POST",
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  for (const amount of [150000.5, "1500.50", -100, 0]) {
    const res = await post({ email: "ada@example.com", amount, reference: `kobo-${++seq}`, ussd: { type: "737" } });
    assert.equal(res.status, 400, String(amount));
    // Paystack's OpenAPI types amount as an integer: the double refuses a fraction or a string by it where present.
    assert.match(((await res.json()) as { message: string }).message, /^(Invalid Amount Sent|Invalid request: \/amount must be integer)$/);
  }
  const res = await post({ email: "ada@example.com", amount: 10000, reference: `type-${++seq}`, ussd: { type: "901" } });
  assert.equal(res.status, 400);
  assert.match(
    ((await res.json()) as { message: string }).message,
    /Invalid USSD type|\/ussd\/type must be equal to one of the allowed values/,
  );
  await assert.rejects(paystack.testConnection({ ...ps.account, credentials: { secretKey: "sk_test_wrong" } }, quick()), ProviderRefused);
  await paystack.testConnection(ps.account, quick());
});

test("refund: queued pending, processed by the double, announced by a signed refund.processed that names the payment and amount", async () => {
  const req = issueRequest("USSD", 500000);
  await paystack.issue(ps.account, req, quick());
  await ps.control("POST", `/transactions/${req.reference}/pay`);
  const from = ps.received.length + 1; // the charge.success
  await ps.webhooksAfter(from - 1, 1);
  const refund = await paystack.refund?.(
    ps.account,
    { reference: req.reference, providerReference: req.reference, amountKobo: 200000, refundReference: "RFD1", reason: "returned" },
    quick(),
  );
  assert.equal(refund?.state, "pending");
  const { readings } = await ps.webhooksAfter(from, 2); // refund.pending, then refund.processed
  assert.equal(readings[0]?.kind, "ignored");
  assert.deepEqual(
    { ...readings[1], eventId: "" },
    { kind: "refund", eventId: "", providerReference: req.reference, reference: req.reference, amountKobo: 200000, state: "processed" },
  );
  assert.deepEqual(await paystack.queryRefund?.(ps.account, refund?.refundId ?? "", quick()), {
    refundId: refund?.refundId,
    state: "processed",
  });
  await assert.rejects(
    paystack.refund?.(
      ps.account,
      { reference: req.reference, providerReference: req.reference, amountKobo: 300001, refundReference: "RFD2", reason: "too much" },
      quick(),
    ) ?? Promise.resolve(),
    (e: unknown) => e instanceof ProviderRefused && /cannot be more than/.test(e.message),
  );
  await ps.control("POST", "/faults", { kind: "refund-fails" });
  const failing = await paystack.refund?.(
    ps.account,
    { reference: req.reference, providerReference: req.reference, amountKobo: 100000, refundReference: "RFD3", reason: "again" },
    quick(),
  );
  const ended = await eventually("the refund ended", async () => {
    const state = await paystack.queryRefund?.(ps.account, failing?.refundId ?? "", quick());
    return state?.state !== "pending" && state;
  });
  assert.equal(ended.state, "failed");
});
