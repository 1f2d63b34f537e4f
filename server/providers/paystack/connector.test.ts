// The Paystack connector against the Paystack double, run as its own process (`npm run double -- paystack`), over
// real HTTP: both channels, signed webhooks to a receiver, verify, refunds, and each fault the double can inject.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { eventually } from "../../testing/eventually";
import { bankByCode, type Bank } from "../banks";
import {
  NoticeRejected,
  ProviderRefused,
  ProviderUnavailable,
  type IssueRequest,
  type NoticeReading,
  type ProviderAccount,
} from "../connector";
import { paystack } from "./connector";

type Received = { headers: Record<string, string | string[] | undefined>; raw: Buffer };

let double: DoubleProcess;
let baseUrl = "";
const secretKey = "sk_test_paystack_connector_test";
let receiver: Server;
const received: Received[] = [];
let account: ProviderAccount;
let seq = 0;

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices`;
  double = await spawnDouble("paystack", { "secret-key": secretKey, "webhook-url": hook, "refund-delay-ms": "20" });
  baseUrl = double.url;
  account = { id: "prv_test", provider: "paystack", baseUrl, credentials: { secretKey } };
});

after(async () => {
  await double.stop();
  await new Promise((r) => receiver.close(r));
});

const gtbank = bankByCode("058") as Bank;
function request(channel: "USSD" | "TRANSFER", amountKobo = 150000): IssueRequest {
  return {
    channel,
    reference: `OWO-${process.pid}-${++seq}`,
    amountKobo,
    currency: "NGN",
    ...(channel === "USSD" ? { bank: gtbank } : {}),
    customer: { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "08012345678" },
    merchantName: "Demo Store",
    expiresAt: Date.now() + 20 * 60_000,
  };
}
// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const quick = () => AbortSignal.timeout(15_000);

async function control(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** Waits until `n` more webhooks reached the receiver than `from`, then reads them as Owo would. */
async function webhooksAfter(from: number, n: number): Promise<{ readings: NoticeReading[]; raw: Received[] }> {
  // GET /_double/webhooks answers once the double's outbox has nothing in flight; a webhook the double sends later by
  // its own timer (refund.processed) is waited for, then the count must be exact.
  await eventually(`${n} webhooks`, async () => (await control("GET", "/_double/webhooks"), received.length >= from + n));
  const raw = received.slice(from);
  assert.equal(raw.length, n, `expected ${n} webhooks, got ${raw.map((r) => r.raw.toString().slice(0, 40)).join(" | ")}`);
  return { raw, readings: raw.map((r) => paystack.readNotice(account, r.raw, r.headers)) };
}

test("serves TRANSFER, and USSD only for the banks whose short code is one of Paystack's ussd types", () => {
  assert.equal(paystack.serves("TRANSFER"), true);
  for (const code of ["058", "033", "232", "057"]) assert.equal(paystack.serves("USSD", bankByCode(code)), true, code);
  for (const code of ["044", "011", "070"]) assert.equal(paystack.serves("USSD", bankByCode(code)), false, code);
});

test("USSD: the dial code is Paystack's, the customer pays, the signed charge.success reads as a credit, verify agrees", async () => {
  const req = request("USSD");
  const issued = await paystack.issue(account, req, quick());
  assert.equal(issued.providerReference, req.reference);
  assert.match(issued.channel === "USSD" ? issued.dialCode : "", /^\*737\*33\*4\*\d{6}#$/);
  assert.equal((await paystack.query(account, req.reference, quick())).state, "pending");
  const from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${req.reference}/pay`)).status, 200);
  const { readings, raw } = await webhooksAfter(from, 1);
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
  const state = await paystack.query(account, req.reference, quick());
  assert.equal(state.state, "paid");
  assert.equal(state.amountKobo, 150000);
  assert.ok(state.paidAt && Math.abs(state.paidAt - Date.now()) < 10_000);
  const forged = Buffer.from(raw[0]?.raw.toString().replace('"amount":150000', '"amount":1500000') ?? "");
  assert.throws(() => paystack.readNotice(account, forged, raw[0]?.headers ?? {}), NoticeRejected);
});

test("USSD decline: Paystack sends no webhook; verify reports the charge failed", async () => {
  const req = request("USSD");
  await paystack.issue(account, req, quick());
  const from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${req.reference}/decline`)).status, 200);
  await webhooksAfter(from, 0);
  assert.equal((await paystack.query(account, req.reference, quick())).state, "failed");
});

test("TRANSFER: a temporary account; a wrong amount is sent back by Paystack (bank.transfer.rejected), the exact amount settles", async () => {
  const req = request("TRANSFER", 250000);
  const issued = await paystack.issue(account, req, quick());
  assert.ok(issued.channel === "TRANSFER");
  assert.match(issued.accountNumber, /^\d{10}$/);
  assert.equal(issued.bankName, "Test Bank");
  assert.equal(issued.accountName, "TEST-MANAGED-ACCOUNT");
  assert.ok(issued.expiresAt && issued.expiresAt <= req.expiresAt);
  let from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${req.reference}/pay`, { amount: 100000 })).json.outcome, "reversed");
  const rejected = await webhooksAfter(from, 1);
  assert.equal(rejected.readings[0]?.kind, "ignored");
  assert.equal((await paystack.query(account, req.reference, quick())).state, "pending");
  from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${req.reference}/pay`, { amount: 300000 })).json.outcome, "reversed");
  await webhooksAfter(from, 1);
  from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${req.reference}/pay`)).json.outcome, "paid");
  const paid = await webhooksAfter(from, 1);
  assert.equal(paid.readings[0]?.kind === "payment" && paid.readings[0].amountKobo, 250000);
  const inspected = await control("GET", `/_double/transactions/${req.reference}`);
  assert.deepEqual(
    (inspected.json.reversals as { amount: number }[]).map((r) => r.amount),
    [100000, 300000],
  );
});

test("a charge left to lapse (abandoned) is only not paid yet; a transfer into the dead account is sent back (ACCOUNT_EXPIRED)", async () => {
  const ussd = request("USSD");
  await paystack.issue(account, ussd, quick());
  assert.equal((await control("POST", `/_double/transactions/${ussd.reference}/expire`)).status, 200);
  // Paystack calls an unfinished charge abandoned long before a dial code is dead: Owo's own expiry decides.
  assert.deepEqual(await paystack.query(account, ussd.reference, quick()), {
    state: "pending",
    providerReference: ussd.reference,
    amountKobo: 0,
    currency: "NGN",
  });
  assert.equal((await control("POST", `/_double/transactions/${ussd.reference}/pay`)).status, 409);
  const transfer = request("TRANSFER");
  await paystack.issue(account, transfer, quick());
  await control("POST", `/_double/transactions/${transfer.reference}/expire`);
  const from = received.length;
  assert.equal((await control("POST", `/_double/transactions/${transfer.reference}/pay`)).json.reason, "account expired");
  const { readings } = await webhooksAfter(from, 1);
  assert.match(readings[0]?.kind === "ignored" ? readings[0].why : "", /ACCOUNT_EXPIRED/);
  assert.equal((await paystack.query(account, transfer.reference, quick())).state, "pending");
});

test("the double is as strict as Paystack: wrong key, reused reference, non-integer kobo, unknown ussd.type", async () => {
  const req = request("USSD");
  await assert.rejects(
    paystack.issue({ ...account, credentials: { secretKey: "sk_test_wrong" } }, req, quick()),
    (e: unknown) => e instanceof ProviderRefused && /401\): Invalid key/.test(e.message),
  );
  await paystack.issue(account, req, quick());
  await assert.rejects(
    paystack.issue(account, req, quick()),
    (e: unknown) => e instanceof ProviderRefused && /Duplicate Transaction Reference/.test(e.message),
  );
  const post = (body: unknown) =>
    fetch(`${baseUrl}/charge`, {
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
  await assert.rejects(paystack.testConnection({ ...account, credentials: { secretKey: "sk_test_wrong" } }, quick()), ProviderRefused);
  await paystack.testConnection(account, quick());
});

test("refund: queued pending, processed by the double, announced by a signed refund.processed that names the payment and amount", async () => {
  const req = request("USSD", 500000);
  await paystack.issue(account, req, quick());
  await control("POST", `/_double/transactions/${req.reference}/pay`);
  const from = received.length + 1; // the charge.success
  await webhooksAfter(from - 1, 1);
  const refund = await paystack.refund?.(
    account,
    { reference: req.reference, providerReference: req.reference, amountKobo: 200000, refundReference: "RFD1", reason: "returned" },
    quick(),
  );
  assert.equal(refund?.state, "pending");
  const { readings } = await webhooksAfter(from, 2); // refund.pending, then refund.processed
  assert.equal(readings[0]?.kind, "ignored");
  assert.deepEqual(
    { ...readings[1], eventId: "" },
    { kind: "refund", eventId: "", providerReference: req.reference, reference: req.reference, amountKobo: 200000, state: "processed" },
  );
  assert.deepEqual(await paystack.queryRefund?.(account, refund?.refundId ?? "", quick()), {
    refundId: refund?.refundId,
    state: "processed",
  });
  await assert.rejects(
    paystack.refund?.(
      account,
      { reference: req.reference, providerReference: req.reference, amountKobo: 300001, refundReference: "RFD2", reason: "too much" },
      quick(),
    ) ?? Promise.resolve(),
    (e: unknown) => e instanceof ProviderRefused && /cannot be more than/.test(e.message),
  );
  await control("POST", "/_double/faults", { kind: "refund-fails" });
  const failing = await paystack.refund?.(
    account,
    { reference: req.reference, providerReference: req.reference, amountKobo: 100000, refundReference: "RFD3", reason: "again" },
    quick(),
  );
  const ended = await eventually("the refund ended", async () => {
    const state = await paystack.queryRefund?.(account, failing?.refundId ?? "", quick());
    return state?.state !== "pending" && state;
  });
  assert.equal(ended.state, "failed");
});

test("faults surface as ProviderUnavailable: 5xx, a hang past the caller's timeout, a refused connection", async () => {
  await control("POST", "/_double/faults", { kind: "5xx", path: "/charge" });
  await assert.rejects(
    paystack.issue(account, request("TRANSFER"), quick()),
    (e: unknown) => e instanceof ProviderUnavailable && /answered 500/.test(e.message),
  );
  await control("POST", "/_double/faults", { kind: "hang", path: "/transaction/verify" });
  const started = Date.now();
  await assert.rejects(
    paystack.query(account, "anything", AbortSignal.timeout(300)),
    (e: unknown) => e instanceof ProviderUnavailable && /no answer in time/.test(e.message),
  );
  assert.ok(Date.now() - started < 2000);
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  await assert.rejects(
    paystack.issue({ ...account, baseUrl: `http://127.0.0.1:${port}` }, request("USSD"), quick()),
    (e: unknown) => e instanceof ProviderUnavailable && /ECONNREFUSED/.test(e.message),
  );
  const ok = await paystack.issue(account, request("USSD"), quick()); // the faults were used up
  assert.equal(ok.channel, "USSD");
});

test("webhook faults: dropped (verify still tells), duplicated (same event id twice), reordered, amount disagreeing with the record", async () => {
  const pay = async () => {
    const req = request("USSD", 120000);
    await paystack.issue(account, req, quick());
    await control("POST", `/_double/transactions/${req.reference}/pay`);
    return req.reference;
  };
  let from = received.length;
  await control("POST", "/_double/faults", { kind: "drop-webhook" });
  const dropped = await pay();
  await webhooksAfter(from, 0);
  assert.equal((await paystack.query(account, dropped, quick())).state, "paid");

  from = received.length;
  await control("POST", "/_double/faults", { kind: "duplicate-webhook" });
  await pay();
  const twice = await webhooksAfter(from, 2);
  assert.equal(twice.readings[0]?.eventId, twice.readings[1]?.eventId);

  from = received.length;
  await control("POST", "/_double/faults", { kind: "reorder-webhooks", times: 2 });
  const first = await pay();
  const second = await pay();
  const reordered = await webhooksAfter(from, 2);
  assert.deepEqual(
    reordered.readings.map((r) => (r.kind === "payment" ? r.reference : "")),
    [second, first],
  );

  from = received.length;
  await control("POST", "/_double/faults", { kind: "amount-mismatch" });
  const lying = await pay();
  const mismatch = await webhooksAfter(from, 1);
  assert.equal(mismatch.readings[0]?.kind === "payment" && mismatch.readings[0].amountKobo, 240000);
  assert.equal((await paystack.query(account, lying, quick())).amountKobo, 120000);
});
