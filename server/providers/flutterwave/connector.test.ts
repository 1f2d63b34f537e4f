// The Flutterwave connector against the Flutterwave double, each its own HTTP server (the double in its own
// process): both channels, the customer paying, webhooks checked by verif-hash, verify_by_reference, refunds, the
// double as strict as Flutterwave (its faults: ./connector-faults.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { isValidNuban } from "../nuban";
import { NoticeRejected, ProviderRefused } from "../connector";
import { bankByCode } from "../banks";
import { eventually } from "../../testing/eventually";
import { issueRequest, providerDouble } from "../../testing/provider-double";
import { flutterwave } from "./connector";

const SECRET_KEY = "FLWSECK_TEST-4f1c0ffee-X";
const SECRET_HASH = "owo-hash-7d1e";
const fw = providerDouble(flutterwave, { secretKey: SECRET_KEY, secretHash: SECRET_HASH }, { accountId: "prv_flw" });
// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const signal = () => AbortSignal.timeout(15_000);

test("USSD: a dial code as Flutterwave issues it, the customer pays, the signed webhook and the requery both say paid", async () => {
  const req = issueRequest("USSD", 150050);
  const issued = await flutterwave.issue(fw.account, req, signal());
  assert.equal(issued.channel, "USSD");
  if (issued.channel !== "USSD") return;
  assert.match(issued.dialCode, /^\*566\*002\*\d+#$/);
  const record = (await fw.control("GET", `/transactions/${req.reference}`)).json.transaction as Record<string, unknown>;
  assert.equal(record.amount, 1500.5, "sent as the two-decimal naira string 1500.50");
  assert.equal(record.flw_ref, issued.providerReference);
  assert.deepEqual(await flutterwave.query(fw.account, req.reference, signal()), {
    state: "pending",
    providerReference: issued.providerReference,
    amountKobo: 150050,
    currency: "NGN",
  });

  assert.equal((await fw.control("POST", `/transactions/${req.reference}/pay`)).status, 200);
  const [hook] = (await fw.webhooksAfter(0, 1)).raw;
  assert.ok(hook);
  assert.equal(hook.headers["verif-hash"], SECRET_HASH);
  const reading = flutterwave.readNotice(fw.account, hook.raw, hook.headers);
  assert.deepEqual(
    { ...reading, eventId: "" },
    {
      kind: "payment",
      eventId: "",
      reference: req.reference,
      providerReference: issued.providerReference,
      outcome: "paid",
      amountKobo: 150050,
      currency: "NGN",
    },
  );
  assert.deepEqual(await flutterwave.query(fw.account, req.reference, signal()), {
    state: "paid",
    providerReference: issued.providerReference,
    amountKobo: 150050,
    feeKobo: 2101, // app_fee ₦21.01: 1.4% of ₦1,500.50, the merchant's
    currency: "NGN",
  });
  assert.throws(() => flutterwave.readNotice(fw.account, hook.raw, { ...hook.headers, "verif-hash": "forged" }), NoticeRejected);
});

test("TRANSFER: a temporary NUBAN account that takes one transfer; an under-payment is recorded as paid for what arrived", async () => {
  const req = issueRequest("TRANSFER", 500000);
  const issued = await flutterwave.issue(fw.account, req, signal());
  assert.equal(issued.channel, "TRANSFER");
  if (issued.channel !== "TRANSFER") return;
  assert.ok(isValidNuban("035", issued.accountNumber), issued.accountNumber);
  assert.equal(issued.bankName, "WEMA BANK");
  assert.equal(issued.accountName, "Ada Stores");
  assert.ok(issued.expiresAt !== undefined && issued.expiresAt <= req.expiresAt);

  assert.equal((await fw.control("POST", `/transactions/${req.reference}/pay`, { amount: 300000 })).status, 200);
  const [hook] = (await fw.webhooksAfter(0, 1)).raw;
  const reading = flutterwave.readNotice(fw.account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.amountKobo, 300000);
  assert.equal((await flutterwave.query(fw.account, req.reference, signal())).amountKobo, 300000);
  const again = await fw.control("POST", `/transactions/${req.reference}/pay`, { amount: 200000 });
  assert.equal(again.status, 409, "the dynamic account expired after use");
  assert.match(String(again.json.error), /expired/);
});

test("TRANSFER: the account expires with the lifetime asked for, and a late transfer is returned", async () => {
  const req = issueRequest("TRANSFER", 100000, 1500);
  const issued = await flutterwave.issue(fw.account, req, signal());
  assert.ok(issued.expiresAt! <= Date.now() + 1500);
  // Time passing is the scenario, on the double's own clock (its own process): wait exactly until the lifetime it
  // answered has ended (the same wall clock on this machine), then pay.
  await new Promise((r) => setTimeout(r, Math.max(0, issued.expiresAt! - Date.now() + 5)));
  assert.equal((await fw.control("POST", `/transactions/${req.reference}/pay`)).status, 409);
  assert.equal((await flutterwave.query(fw.account, req.reference, signal())).state, "pending");
});

test("TRANSFER: an account the double lets lapse at once sends a transfer back; Flutterwave's record stays pending", async () => {
  const req = issueRequest("TRANSFER", 100000);
  await flutterwave.issue(fw.account, req, signal());
  assert.equal((await fw.control("POST", `/transactions/${req.reference}/expire`)).status, 200);
  const late = await fw.control("POST", `/transactions/${req.reference}/pay`);
  assert.equal(late.status, 409);
  assert.match(String(late.json.error), /returns the transfer/);
  assert.equal((await flutterwave.query(fw.account, req.reference, signal())).state, "pending");
});

test("a declined USSD charge: the webhook and the requery both say failed", async () => {
  const req = issueRequest("USSD", 20000);
  await flutterwave.issue(fw.account, req, signal());
  await fw.control("POST", `/transactions/${req.reference}/decline`);
  const [hook] = (await fw.webhooksAfter(0, 1)).raw;
  const reading = flutterwave.readNotice(fw.account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.outcome, "failed");
  assert.equal((await flutterwave.query(fw.account, req.reference, signal())).state, "failed");
});

test("an unknown reference is not_found; the double is as strict as Flutterwave", async () => {
  assert.equal((await flutterwave.query(fw.account, "OWO-never-issued", signal())).state, "not_found");
  const req = issueRequest("USSD", 10000);
  await flutterwave.issue(fw.account, req, signal());
  await assert.rejects(
    flutterwave.issue(fw.account, req, signal()),
    (e: unknown) => e instanceof ProviderRefused && /Duplicate transaction reference/.test(e.message),
  );
  await assert.rejects(
    flutterwave.issue(fw.account, { ...issueRequest("USSD", 10000), bank: bankByCode("063")! }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /not supported for this account_bank/.test(e.message),
  );
  const post = (body: unknown, key = SECRET_KEY) =>
    fetch(`${fw.double.url}/v3/charges?type=bank_transfer`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
  for (const amount of ["15.005", "-1", "abc", 0, "1e3", 12.345]) {
    const res = await post({ tx_ref: `bad-${String(amount)}`, amount, currency: "NGN", email: "a@b.co" });
    assert.equal(res.status, 400, String(amount));
    assert.equal(((await res.json()) as { status: string }).status, "error");
  }
  assert.equal((await post({ tx_ref: "usd", amount: "10", currency: "USD", email: "a@b.co" })).status, 400);
  assert.equal((await post({ tx_ref: "wrong-key", amount: "10", currency: "NGN", email: "a@b.co" }, "FLWSECK_TEST-wrong")).status, 401);
});

test("credentials: test connection passes with the secret key; a wrong key is ProviderRefused (401)", async () => {
  await flutterwave.testConnection(fw.account, signal());
  const wrong = { ...fw.account, credentials: { ...fw.account.credentials, secretKey: "FLWSECK_TEST-wrong" } };
  await assert.rejects(flutterwave.testConnection(wrong, signal()), (e: unknown) => e instanceof ProviderRefused && /401/.test(e.message));
  await assert.rejects(flutterwave.issue(wrong, issueRequest("USSD", 10000), signal()), ProviderRefused);
});

test("refunds: initiated pending, followed to processed or failed; more than is left is refused (ProviderRefused, final)", async () => {
  const req = issueRequest("TRANSFER", 400000);
  const issued = await flutterwave.issue(fw.account, req, signal());
  await fw.control("POST", `/transactions/${req.reference}/pay`);
  const refund = {
    reference: req.reference,
    providerReference: issued.providerReference,
    amountKobo: 150000,
    refundReference: "RFD-1",
    reason: "out of stock",
  };
  const started = await flutterwave.refund!(fw.account, refund, signal());
  assert.equal(started.state, "pending");
  // Paid out by the double's own timer (refundDelayMs): followed the way Owo's refund follower asks, not by sleeping.
  const processed = await eventually("the refund paid out", async () => {
    const state = await flutterwave.queryRefund!(fw.account, started.refundId, signal());
    return state.state !== "pending" && state;
  });
  assert.deepEqual(processed, { refundId: started.refundId, state: "processed" });
  await assert.rejects(
    flutterwave.refund!(fw.account, { ...refund, amountKobo: 250001, refundReference: "RFD-2" }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /cannot be greater/.test(e.message),
  );
  await fw.control("POST", "/faults", { kind: "refund-fails" });
  const failing = await flutterwave.refund!(fw.account, { ...refund, amountKobo: 250000, refundReference: "RFD-3" }, signal());
  const failed = await eventually("the refund ended", async () => {
    const state = await flutterwave.queryRefund!(fw.account, failing.refundId, signal());
    return state.state !== "pending" && state;
  });
  assert.equal(failed.state, "failed");
  const unpaid = issueRequest("USSD", 10000);
  await flutterwave.issue(fw.account, unpaid, signal());
  await assert.rejects(
    flutterwave.refund!(fw.account, { ...refund, reference: unpaid.reference, amountKobo: 10000 }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /Only successful/.test(e.message),
  );
});
