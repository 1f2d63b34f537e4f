// Live payments through a chained Owo as SeerBit, end to end over real HTTP: Owo A (live keys, a SeerBit account)
// routes to Owo B (its own process, test keys, sandbox bank). The customer pays at B; B's unsigned callback reaches
// A's notice URL; A believes it only once B's own record (a query) agrees; A's merchant gets a signed callback.
// dialect: sqlite only — Owo B, the chained SeerBit, lives in its own SQLite file beside A (its CLI and worker open it by path).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import { call, createTestMerchant, startOwo, tempDataDir, tokenFor, type Owo } from "../../testing/harness";
import { runCli, databaseIn, spawnOwo, type OwoProcess } from "../../testing/processes";
import { eventually } from "../../testing/eventually";
import { startReceiver, type Receiver } from "../../testing/receiver";

let owoA: Owo;
let owoB: OwoProcess;
/** B's callback worker as its own process (`npm run worker`), so a test can silence B's notices by stopping it. */
let workerB: ChildProcess;
let receiver: Receiver;
let keysB: { publicKey: string; secretKey: string };
let a: { merchantId: string; publicKey: string; token: string; webhookSecret: string; noticeUrl: string };

before(async () => {
  const dataDir = tempDataDir();
  const made = runCli(
    [
      "merchant",
      "create",
      "--name",
      "Chained Bank",
      "--email",
      `journeys${process.pid}@example.com`,
      "--password",
      "a long enough chain password 42",
      "--json",
    ],
    dataDir,
  );
  assert.equal(made.status, 0, made.stderr);
  keysB = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { publicKey: string; secretKey: string };
  [owoA, owoB, receiver] = await Promise.all([
    startOwo({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_REQUERY_BACKOFF_SCALE: "0.1", OWO_PROVIDER_TIMEOUT_MS: "15000" }),
    spawnOwo(databaseIn(dataDir), { OWO_WORKER: "off" }),
    startReceiver(),
  ]);
  workerB = spawn(process.execPath, ["--import", "tsx", "server/webhooks/worker-main.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: join(dataDir, "owo.db"),
      OWO_ALLOW_PRIVATE_CALLBACKS: "1",
      OWO_WEBHOOK_BACKOFF_SCALE: "0.001",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    workerB.stdout?.on("data", (d: Buffer) => ((out += d.toString()), out.includes("callback worker started") && resolve()));
    workerB.once("exit", (code) => reject(new Error(`B's worker exited ${code}: ${out}`)));
  });
  const { connectProvider } = await import("../accounts");
  const { createLiveKeys } = await import("../../auth/api-keys");
  const m = await createTestMerchant("Shop on Owo A");
  const { noticeUrl } = await connectProvider(m.merchantId, { provider: "seerbit", credentials: keysB, baseUrl: owoB.url });
  const keys = await createLiveKeys(m.merchantId);
  a = {
    merchantId: m.merchantId,
    publicKey: keys.publicKey,
    webhookSecret: keys.webhookSecret,
    token: await tokenFor(owoA, keys),
    noticeUrl,
  };
});
after(async () => {
  if (workerB.exitCode === null) workerB.kill("SIGKILL");
  if (owoB.child.exitCode === null) owoB.child.kill("SIGKILL");
  await owoB.exited;
  await receiver.stop();
  await owoA.stop();
});

let n = 0;
async function initiate(patch: Record<string, unknown>) {
  const paymentReference = `chain-${process.pid}-${++n}`;
  const res = await call(owoA, "POST", "/api/v2/payments/initiates", {
    token: a.token,
    body: {
      publicKey: a.publicKey,
      amount: "2500.00",
      fullName: "Ada Obi",
      mobileNumber: "08012345678",
      email: "ada@example.com",
      currency: "NGN",
      country: "NG",
      paymentReference,
      callbackUrl: receiver.url(`/cb/${paymentReference}`),
      redirectUrl: "https://shop.example.ng/done",
      ...patch,
    },
  });
  assert.equal(res.status, 200, res.text);
  // A's reference at B is its first attempt's: linkingReference-1.
  return { paymentReference, atB: `${res.json.data.payments.linkingReference}-1`, payments: res.json.data.payments };
}

/** call() and tokenFor() read only an Owo's URL: B is its own process, so that is all there is of it here. */
const b = (): Owo => ({ url: owoB.url }) as Owo;
const verifyAtA = async (ref: string) => (await call(owoA, "GET", `/api/v3/payments/query/${ref}`, { token: a.token })).json.data;

/** The customer at B's sandbox bank. */
async function customerAtB(atB: string, body: Record<string, string>) {
  const token = await tokenFor(b(), keysB);
  const res = await call(b(), "POST", `/api/v2/sandbox/payments/${atB}/simulate`, { token, body });
  assert.equal(res.status, 200, res.text);
}

function callbacksAtA(ref: string) {
  return receiver.received
    .filter((r) => r.path === `/cb/${ref}`)
    .map((r) => {
      const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
      const signed = new Webhook(a.webhookSecret).verify(r.body, headers) as {
        notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[];
      };
      return signed.notificationItems[0]?.notificationRequestItem.data ?? {};
    });
}

test("USSD through the chain: B's dial code; the customer pays at B; B's notice, confirmed by query, settles A; A's merchant hears, signed, sequence 2", async () => {
  // An amount with kobo: naira strings cross both Owos to the kobo.
  const p = await initiate({ paymentType: "USSD", bankCode: "044", amount: "1200.50" });
  assert.match(p.payments.ussdDailCode, /^\*901\*000\*\d{8}#$/);
  assert.match(p.payments.providerreference, /^OWO\d+$/);
  await customerAtB(p.atB, { outcome: "pay" });
  const { providerNoticesOf } = await import("../notice-log");
  // Wait on the notice itself: a verify now would ask B at once (A has never heard from B about it).
  await eventually("B's notice at A", async () => (await providerNoticesOf(a.merchantId, "live", p.paymentReference)).length > 0, 15_000);
  const v = await verifyAtA(p.paymentReference);
  assert.deepEqual(
    [v.payments.status, v.payments.amountPaid, v.payments.provider, v.payments.mode],
    ["SUCCESSFUL", "1200.50", "seerbit", "live"],
  );
  const cb = await eventually("A's merchant callback", () => callbacksAtA(p.paymentReference)[0]);
  assert.deepEqual([cb.event, cb.sequence, cb.amountPaid, cb.provider, cb.mode], ["payment.successful", 2, "1200.50", "seerbit", "live"]);
  assert.deepEqual(
    (await providerNoticesOf(a.merchantId, "live", p.paymentReference)).map((x) => [x.source, x.outcome]),
    [["notice", "applied"]],
    "B's notice did it, not a requery",
  );
});

test("TRANSFER through the chain: B's account as A's answer; a part payment at B is PARTIALLY_PAID at A, the rest SUCCESSFUL", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  assert.deepEqual([p.payments.bankName, p.payments.walletName], ["Owo Sandbox Bank", "OWO(Chained Bank)"]);
  assert.equal(p.payments.wallet, p.payments.accountNumber);
  await customerAtB(p.atB, { outcome: "pay", amount: "1000.00" });
  await eventually("A partly paid", async () => (await verifyAtA(p.paymentReference)).payments.status === "PARTIALLY_PAID");
  assert.equal((await verifyAtA(p.paymentReference)).payments.amountPaid, "1000.00");
  await customerAtB(p.atB, { outcome: "pay" });
  await eventually("A paid in full", async () => (await verifyAtA(p.paymentReference)).payments.status === "SUCCESSFUL");
  assert.equal((await verifyAtA(p.paymentReference)).payments.amountPaid, "2500.00");
  await eventually("both callbacks", () => callbacksAtA(p.paymentReference).length === 2);
  assert.deepEqual(
    callbacksAtA(p.paymentReference).map((d) => d.event),
    ["payment.partially_paid", "payment.successful"],
  );
});

test("an unsigned notice made up by anyone is checked against B's record: B says pending, so nothing moves at A", async () => {
  const p = await initiate({ paymentType: "TRANSFER" });
  const { findPayment } = await import("../../payments/lookup");
  // As real as a forger can make it: the true reference at B and A's stored providerreference, a full SeerBit body.
  const forged = {
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: "transaction",
          eventId: `evt_forged_${n}`,
          eventDate: new Date().toISOString(),
          data: {
            event: "payment.successful",
            sequence: 2,
            paymentReference: p.atB,
            linkingReference: (await findPayment(a.merchantId, "live", p.paymentReference)).providerReference,
            paymentType: "TRANSFER",
            status: "SUCCESSFUL",
            code: "00",
            amount: "2500.00",
            amountPaid: "2500.00",
            amountToRefund: "0.00",
            currency: "NGN",
            mode: "test",
            updatedAt: new Date().toISOString(),
          },
        },
      },
    ],
  };
  const res = await fetch(a.noticeUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(forged) });
  assert.equal(res.status, 200);
  assert.equal(
    ((await res.json()) as { data: { message: string } }).data.message,
    "Notice does not match the provider's record; nothing moved",
  );
  const v = await verifyAtA(p.paymentReference);
  assert.deepEqual([v.payments.status, v.payments.amountPaid], ["PENDING", "0.00"]);
  assert.equal(callbacksAtA(p.paymentReference).length, 0);
});

test("a refund at A goes to B under A's refundReference; B's refund.processed notice settles it: PROCESSED, refund.processed", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customerAtB(p.atB, { outcome: "pay" });
  await eventually("A paid", async () => (await verifyAtA(p.paymentReference)).payments.status === "SUCCESSFUL");
  const res = await call(owoA, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
    token: a.token,
    body: { amount: "700.00", reason: "one item back", refundReference: `RFD-${p.paymentReference}` },
  });
  assert.equal(res.status, 200, res.text);
  await eventually("A's refund processed", async () => (await verifyAtA(p.paymentReference)).payments.amountRefunded === "700.00");
  const tokenB = await tokenFor(b(), keysB);
  const atB = await call(b(), "GET", `/api/v3/payments/query/${p.atB}`, { token: tokenB });
  assert.equal(atB.json.data.payments.amountRefunded, "700.00", "the money went back at B");
  await eventually("refund.processed at A's merchant", () => callbacksAtA(p.paymentReference).some((d) => d.event === "refund.processed"));
});

test("a forged refund.processed at A's SeerBit notice URL moves nothing: A asks B, B's record says otherwise, and the refund ends as B decides", async () => {
  const p = await initiate({ paymentType: "USSD", bankCode: "058" });
  await customerAtB(p.atB, { outcome: "pay" });
  await eventually("A paid", async () => (await verifyAtA(p.paymentReference)).payments.status === "SUCCESSFUL");
  // B's sandbox bank will refuse this refund ("[decline]"): only a believed forgery could ever make it PROCESSED.
  const refundReference = `RFD-forged-${p.paymentReference}`;
  const res = await call(owoA, "POST", `/api/v2/payments/${p.paymentReference}/refunds`, {
    token: a.token,
    body: { amount: "2500.00", reason: "[decline] forged test", refundReference },
  });
  assert.equal(res.status, 200, res.text);
  const forged = {
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: "transaction",
          eventId: `evt_forged_refund_${n}`,
          eventDate: new Date().toISOString(),
          data: {
            event: "refund.processed",
            sequence: 3,
            paymentReference: p.atB,
            linkingReference: p.payments.providerreference,
            paymentType: "USSD",
            status: "SUCCESSFUL",
            code: "00",
            amount: "2500.00",
            amountPaid: "2500.00",
            amountToRefund: "0.00",
            currency: "NGN",
            mode: "test",
            updatedAt: new Date().toISOString(),
            refund: { refundReference, amount: "2500.00", status: "PROCESSED", reason: "[decline] forged test" },
          },
        },
      },
    ],
  };
  const answer = await fetch(a.noticeUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(forged),
  });
  assert.equal(answer.status, 200);
  assert.equal(
    ((await answer.json()) as { data: { message: string } }).data.message,
    "Notice does not match the provider's record; nothing moved",
  );
  assert.equal((await verifyAtA(p.paymentReference)).payments.amountRefunded, "0.00");
  await eventually("B's refusal reaches A", () => callbacksAtA(p.paymentReference).some((d) => d.event === "refund.failed"), 20_000);
  assert.ok(!callbacksAtA(p.paymentReference).some((d) => d.event === "refund.processed"), "never refund.processed");
  const atB = await call(b(), "GET", `/api/v2/payments/${p.atB}/refunds/${refundReference}`, { token: await tokenFor(b(), keysB) });
  assert.deepEqual(
    [atB.status, atB.json.data.code, atB.json.data.message, atB.json.data.refund.status, atB.json.data.refund.amount],
    [200, "00", "Successful", "FAILED", "2500.00"],
  );
  const missing = await call(b(), "GET", `/api/v2/payments/${p.atB}/refunds/no-such-refund`, { token: await tokenFor(b(), keysB) });
  assert.deepEqual([missing.status, missing.json.data.code], [404, "S404"]);
});

test("B's notice never comes (its callback worker is down): A's requery loop (first ask after about 6 s here) asks B and settles it with the same callbacks", async () => {
  workerB.kill("SIGKILL");
  const p = await initiate({ paymentType: "USSD", bankCode: "044" });
  await customerAtB(p.atB, { outcome: "pay" });
  await eventually("the requery loop's callback", () => callbacksAtA(p.paymentReference)[0], 20_000);
  const v = await verifyAtA(p.paymentReference);
  assert.deepEqual([v.payments.status, v.payments.amountPaid], ["SUCCESSFUL", "2500.00"]);
  assert.deepEqual(
    callbacksAtA(p.paymentReference).map((d) => [d.event, d.sequence]),
    [["payment.successful", 2]],
  );
  const { providerNoticesOf } = await import("../notice-log");
  assert.deepEqual(
    (await providerNoticesOf(a.merchantId, "live", p.paymentReference)).map((x) => [x.source, x.outcome]),
    [["requery", "applied"]],
  );
});
