// The Flutterwave connector against the Flutterwave double, each its own HTTP server (the double in its own
// process): both channels, the customer paying, webhooks checked by verif-hash, verify_by_reference, refunds, and
// every fault the double injects surfacing as ProviderUnavailable.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, test } from "node:test";
import { isValidNuban } from "../nuban";
import { NoticeRejected, ProviderRefused, ProviderUnavailable, type IssueRequest, type ProviderAccount } from "../connector";
import { bankByCode } from "../banks";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { eventually } from "../../testing/eventually";
import { flutterwave } from "./connector";

const SECRET_KEY = "FLWSECK_TEST-4f1c0ffee-X";
const SECRET_HASH = "owo-hash-7d1e";
let double: DoubleProcess;
let receiver: Server;
let account: ProviderAccount;
const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  double = await spawnDouble("flutterwave", { "secret-key": SECRET_KEY, "secret-hash": SECRET_HASH });
  await control("PUT", "/webhook-url", { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices` });
  account = {
    id: "prv_flw",
    provider: "flutterwave",
    baseUrl: double.url,
    credentials: { secretKey: SECRET_KEY, secretHash: SECRET_HASH },
  };
});
after(async () => {
  await double.stop();
  await new Promise((r) => receiver.close(r));
});
beforeEach(async () => {
  await control("DELETE", "/faults");
  received.length = 0;
});

async function control(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${double.url}/_double${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The webhooks Owo's receiver got, once `count` came and the double's outbox has nothing in flight (GET /_double/webhooks waits for it). */
async function webhooks(count: number): Promise<typeof received> {
  await eventually(`${count} webhooks`, async () => (await control("GET", "/webhooks"), received.length >= count));
  assert.equal(received.length, count, `expected ${count} webhooks, got ${received.length}`);
  return received.slice(0, count);
}

/** The double's own log of what it sent, and Owo's answer to each ("dropped" for a delivery a fault swallowed). */
async function sentLog(): Promise<{ event: string; answer: number | string }[]> {
  return (await control("GET", "/webhooks")).json.webhooks as { event: string; answer: number | string }[];
}

let n = 0;
function request(channel: "USSD" | "TRANSFER", amountKobo: number, lifetimeMs = 30 * 60_000): IssueRequest {
  return {
    channel,
    reference: `OWO-FLW-${process.pid}-${++n}`,
    amountKobo,
    currency: "NGN",
    ...(channel === "USSD" ? { bank: bankByCode("058")! } : {}),
    customer: { fullName: "Ngozi Okafor", email: "ngozi@example.com", mobileNumber: "08031234567" },
    merchantName: "Ada Stores",
    expiresAt: Date.now() + lifetimeMs,
  };
}

// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const signal = () => AbortSignal.timeout(15_000);

test("USSD: a dial code as Flutterwave issues it, the customer pays, the signed webhook and the requery both say paid", async () => {
  const req = request("USSD", 150050);
  const issued = await flutterwave.issue(account, req, signal());
  assert.equal(issued.channel, "USSD");
  if (issued.channel !== "USSD") return;
  assert.match(issued.dialCode, /^\*566\*002\*\d+#$/);
  const record = (await control("GET", `/transactions/${req.reference}`)).json.transaction as Record<string, unknown>;
  assert.equal(record.amount, 1500.5, "sent as the two-decimal naira string 1500.50");
  assert.equal(record.flw_ref, issued.providerReference);
  assert.deepEqual(await flutterwave.query(account, req.reference, signal()), {
    state: "pending",
    providerReference: issued.providerReference,
    amountKobo: 150050,
    currency: "NGN",
  });

  assert.equal((await control("POST", `/transactions/${req.reference}/pay`)).status, 200);
  const [hook] = await webhooks(1);
  assert.ok(hook);
  assert.equal(hook.headers["verif-hash"], SECRET_HASH);
  const reading = flutterwave.readNotice(account, hook.raw, hook.headers);
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
  assert.deepEqual(await flutterwave.query(account, req.reference, signal()), {
    state: "paid",
    providerReference: issued.providerReference,
    amountKobo: 150050,
    feeKobo: 2101, // app_fee ₦21.01: 1.4% of ₦1,500.50, the merchant's
    currency: "NGN",
  });
  assert.throws(() => flutterwave.readNotice(account, hook.raw, { ...hook.headers, "verif-hash": "forged" }), NoticeRejected);
});

test("TRANSFER: a temporary NUBAN account that takes one transfer; an under-payment is recorded as paid for what arrived", async () => {
  const req = request("TRANSFER", 500000);
  const issued = await flutterwave.issue(account, req, signal());
  assert.equal(issued.channel, "TRANSFER");
  if (issued.channel !== "TRANSFER") return;
  assert.ok(isValidNuban("035", issued.accountNumber), issued.accountNumber);
  assert.equal(issued.bankName, "WEMA BANK");
  assert.equal(issued.accountName, "Ada Stores");
  assert.ok(issued.expiresAt !== undefined && issued.expiresAt <= req.expiresAt);

  assert.equal((await control("POST", `/transactions/${req.reference}/pay`, { amount: 300000 })).status, 200);
  const [hook] = await webhooks(1);
  const reading = flutterwave.readNotice(account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.amountKobo, 300000);
  assert.equal((await flutterwave.query(account, req.reference, signal())).amountKobo, 300000);
  const again = await control("POST", `/transactions/${req.reference}/pay`, { amount: 200000 });
  assert.equal(again.status, 409, "the dynamic account expired after use");
  assert.match(String(again.json.error), /expired/);
});

test("TRANSFER: the account expires with the lifetime asked for, and a late transfer is returned", async () => {
  const req = request("TRANSFER", 100000, 1500);
  const issued = await flutterwave.issue(account, req, signal());
  assert.ok(issued.expiresAt! <= Date.now() + 1500);
  // Time passing is the scenario, on the double's own clock (its own process): wait exactly until the lifetime it
  // answered has ended (the same wall clock on this machine), then pay.
  await new Promise((r) => setTimeout(r, Math.max(0, issued.expiresAt! - Date.now() + 5)));
  assert.equal((await control("POST", `/transactions/${req.reference}/pay`)).status, 409);
  assert.equal((await flutterwave.query(account, req.reference, signal())).state, "pending");
});

test("TRANSFER: an account the double lets lapse at once sends a transfer back; Flutterwave's record stays pending", async () => {
  const req = request("TRANSFER", 100000);
  await flutterwave.issue(account, req, signal());
  assert.equal((await control("POST", `/transactions/${req.reference}/expire`)).status, 200);
  const late = await control("POST", `/transactions/${req.reference}/pay`);
  assert.equal(late.status, 409);
  assert.match(String(late.json.error), /returns the transfer/);
  assert.equal((await flutterwave.query(account, req.reference, signal())).state, "pending");
});

test("a declined USSD charge: the webhook and the requery both say failed", async () => {
  const req = request("USSD", 20000);
  await flutterwave.issue(account, req, signal());
  await control("POST", `/transactions/${req.reference}/decline`);
  const [hook] = await webhooks(1);
  const reading = flutterwave.readNotice(account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.outcome, "failed");
  assert.equal((await flutterwave.query(account, req.reference, signal())).state, "failed");
});

test("an unknown reference is not_found; the double is as strict as Flutterwave", async () => {
  assert.equal((await flutterwave.query(account, "OWO-never-issued", signal())).state, "not_found");
  const req = request("USSD", 10000);
  await flutterwave.issue(account, req, signal());
  await assert.rejects(
    flutterwave.issue(account, req, signal()),
    (e: unknown) => e instanceof ProviderRefused && /Duplicate transaction reference/.test(e.message),
  );
  await assert.rejects(
    flutterwave.issue(account, { ...request("USSD", 10000), bank: bankByCode("063")! }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /not supported for this account_bank/.test(e.message),
  );
  const post = (body: unknown, key = SECRET_KEY) =>
    fetch(`${double.url}/v3/charges?type=bank_transfer`, {
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
  await flutterwave.testConnection(account, signal());
  const wrong = { ...account, credentials: { ...account.credentials, secretKey: "FLWSECK_TEST-wrong" } };
  await assert.rejects(flutterwave.testConnection(wrong, signal()), (e: unknown) => e instanceof ProviderRefused && /401/.test(e.message));
  await assert.rejects(flutterwave.issue(wrong, request("USSD", 10000), signal()), ProviderRefused);
});

test("each API fault is ProviderUnavailable: 5xx, a hang past the deadline, a cut connection, nothing listening", async () => {
  await control("POST", "/faults", { kind: "5xx", path: "/v3/charges" });
  await assert.rejects(flutterwave.issue(account, request("USSD", 10000), signal()), /answered 503/);
  await control("POST", "/faults", { kind: "hang", path: "/v3/transactions/verify_by_reference" });
  const started = Date.now();
  await assert.rejects(flutterwave.query(account, "OWO-any", AbortSignal.timeout(300)), /no answer in time/);
  assert.ok(Date.now() - started < 1500);
  await control("POST", "/faults", { kind: "disconnect" });
  await assert.rejects(
    flutterwave.issue(account, request("TRANSFER", 10000), signal()),
    (e: unknown) => e instanceof ProviderUnavailable && /cannot be reached/.test(e.message),
  );
  await flutterwave.testConnection(account, signal()); // the one-shot fault is spent
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  await assert.rejects(
    flutterwave.issue({ ...account, baseUrl: `http://127.0.0.1:${closed}` }, request("USSD", 10000), signal()),
    /cannot be reached \(ECONNREFUSED\)/,
  );
});

test("webhook faults: dropped (the requery still sees the money), duplicated, replayed, reordered, wrong amount", async () => {
  await control("POST", "/faults", { kind: "drop-webhook" });
  const dropped = request("USSD", 30000);
  await flutterwave.issue(account, dropped, signal());
  await control("POST", `/transactions/${dropped.reference}/pay`);
  assert.equal((await sentLog()).at(-1)?.answer, "dropped", "the double swallowed the webhook");
  assert.equal(received.length, 0);
  assert.equal((await flutterwave.query(account, dropped.reference, signal())).state, "paid");

  await control("POST", "/faults", { kind: "duplicate-webhook" });
  const twice = request("USSD", 30000);
  await flutterwave.issue(account, twice, signal());
  await control("POST", `/transactions/${twice.reference}/pay`);
  const [a, b] = await webhooks(2);
  assert.ok(a && b);
  assert.equal(
    flutterwave.readNotice(account, a.raw, a.headers).eventId,
    flutterwave.readNotice(account, b.raw, b.headers).eventId,
    "one event id for both: applied once",
  );
  await control("POST", "/webhooks/replay");
  const [, , replay] = await webhooks(3);
  assert.equal(
    flutterwave.readNotice(account, replay!.raw, replay!.headers).eventId,
    flutterwave.readNotice(account, a.raw, a.headers).eventId,
  );

  received.length = 0;
  await control("POST", "/faults", { kind: "reorder-webhooks", times: 2 });
  const first = request("USSD", 10000);
  const second = request("TRANSFER", 10000);
  await flutterwave.issue(account, first, signal());
  await flutterwave.issue(account, second, signal());
  await control("POST", `/transactions/${first.reference}/pay`);
  await control("POST", `/transactions/${second.reference}/pay`);
  const order = (await webhooks(2)).map((w) => {
    const r = flutterwave.readNotice(account, w.raw, w.headers);
    return r.kind === "payment" ? r.reference : r.kind;
  });
  assert.deepEqual(order, [second.reference, first.reference]);

  received.length = 0;
  await control("POST", "/faults", { kind: "amount-mismatch" });
  const lying = request("USSD", 25000);
  await flutterwave.issue(account, lying, signal());
  await control("POST", `/transactions/${lying.reference}/pay`);
  const [hook] = await webhooks(1);
  const reading = flutterwave.readNotice(account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.amountKobo, 125000, "the webhook claims ₦1,250.00");
  assert.equal((await flutterwave.query(account, lying.reference, signal())).amountKobo, 25000, "Flutterwave's own record says ₦250.00");
});

test("refunds: initiated pending, followed to processed or failed; more than is left is refused (ProviderRefused, final)", async () => {
  const req = request("TRANSFER", 400000);
  const issued = await flutterwave.issue(account, req, signal());
  await control("POST", `/transactions/${req.reference}/pay`);
  const refund = {
    reference: req.reference,
    providerReference: issued.providerReference,
    amountKobo: 150000,
    refundReference: "RFD-1",
    reason: "out of stock",
  };
  const started = await flutterwave.refund!(account, refund, signal());
  assert.equal(started.state, "pending");
  // Paid out by the double's own timer (refundDelayMs): followed the way Owo's refund follower asks, not by sleeping.
  const processed = await eventually("the refund paid out", async () => {
    const state = await flutterwave.queryRefund!(account, started.refundId, signal());
    return state.state !== "pending" && state;
  });
  assert.deepEqual(processed, { refundId: started.refundId, state: "processed" });
  await assert.rejects(
    flutterwave.refund!(account, { ...refund, amountKobo: 250001, refundReference: "RFD-2" }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /cannot be greater/.test(e.message),
  );
  await control("POST", "/faults", { kind: "refund-fails" });
  const failing = await flutterwave.refund!(account, { ...refund, amountKobo: 250000, refundReference: "RFD-3" }, signal());
  const failed = await eventually("the refund ended", async () => {
    const state = await flutterwave.queryRefund!(account, failing.refundId, signal());
    return state.state !== "pending" && state;
  });
  assert.equal(failed.state, "failed");
  const unpaid = request("USSD", 10000);
  await flutterwave.issue(account, unpaid, signal());
  await assert.rejects(
    flutterwave.refund!(account, { ...refund, reference: unpaid.reference, amountKobo: 10000 }, signal()),
    (e: unknown) => e instanceof ProviderRefused && /Only successful/.test(e.message),
  );
});
