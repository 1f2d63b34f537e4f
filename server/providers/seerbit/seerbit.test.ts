// The SeerBit connector against a second Owo process (test keys, sandbox bank) as its SeerBit: a chain of two Owos
// over real HTTP. The second Owo's callbacks reach a receiver standing at the first one's notice URL.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { moveClock } from "../../clock";
import { tempDataDir } from "../../testing/harness";
import { runCli, databaseIn, spawnOwo, type OwoProcess } from "../../testing/processes";
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
import { seerbit } from "./seerbit";

let owoB: OwoProcess;
let receiver: Server;
let noticeUrl = "";
const notices: Buffer[] = [];
let account: ProviderAccount;
let seq = 0;

before(async () => {
  const dataDir = tempDataDir();
  const made = runCli(
    [
      "merchant",
      "create",
      "--name",
      "Chained Bank",
      "--email",
      `chain${process.pid}@example.com`,
      "--password",
      "a long enough chain password 42",
      "--json",
    ],
    dataDir,
  );
  assert.equal(made.status, 0, made.stderr);
  const keys = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { publicKey: string; secretKey: string };
  owoB = await spawnOwo(databaseIn(dataDir), { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.01" });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/api/v2/providers/prv_chain/notices") notices.push(Buffer.concat(chunks));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  noticeUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/v2/providers/prv_chain/notices`;
  account = { id: "prv_chain", provider: "seerbit", baseUrl: owoB.url, credentials: keys };
});

after(async () => {
  if (owoB.child.exitCode === null) owoB.child.kill("SIGTERM");
  await owoB.exited;
  await new Promise((r) => receiver.close(r));
});

function request(channel: "USSD" | "TRANSFER", amountKobo = 150000, bank = "044"): IssueRequest {
  return {
    channel,
    reference: `owo-attempt-${process.pid}-${++seq}`,
    amountKobo,
    currency: "NGN",
    ...(channel === "USSD" ? { bank: bankByCode(bank) as Bank } : {}),
    customer: { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "08012345678" },
    merchantName: "Demo Store",
    expiresAt: Date.now() + 20 * 60_000,
    noticeUrl,
  };
}
// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const quick = () => AbortSignal.timeout(15_000);

/** The customer, at the second Owo's sandbox bank. */
async function simulate(reference: string, body: Record<string, string>): Promise<void> {
  const { credentials } = account;
  const tokenRes = await fetch(`${owoB.url}/api/v2/encrypt/keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key: `${credentials.secretKey}.${credentials.publicKey}` }),
  });
  const token = ((await tokenRes.json()) as { data: { EncryptedSecKey: { encryptedKey: string } } }).data.EncryptedSecKey.encryptedKey;
  const res = await fetch(`${owoB.url}/api/v2/sandbox/payments/${reference}/simulate`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

async function nextNotice(from: number): Promise<NoticeReading> {
  for (let i = 0; i < 300 && notices.length <= from; i++) await new Promise((r) => setTimeout(r, 20));
  const raw = notices[from];
  assert.ok(raw, "the second Owo's callback never reached the notice URL");
  return seerbit.readNotice(account, raw, {});
}

test("serves TRANSFER, and USSD for every bank with a USSD service", () => {
  assert.equal(seerbit.serves("TRANSFER"), true);
  assert.equal(seerbit.serves("USSD", bankByCode("044")), true);
  assert.equal(seerbit.serves("USSD", bankByCode("023")), false);
});

test("USSD through the chain: the second Owo's dial code, its callback read as a credit, and its verify agreeing", async () => {
  const req = request("USSD");
  const issued = await seerbit.issue(account, req, quick());
  assert.ok(issued.channel === "USSD");
  assert.match(issued.dialCode, /^\*901\*000\*\d{8}#$/);
  assert.match(issued.providerReference, /^OWO\d+$/);
  assert.deepEqual(await seerbit.query(account, req.reference, quick()), {
    state: "pending",
    providerReference: issued.providerReference,
    amountKobo: 0,
    currency: "NGN",
  });
  const from = notices.length;
  await simulate(req.reference, { outcome: "pay" });
  const reading = await nextNotice(from);
  assert.deepEqual(
    { ...reading, eventId: "", at: 0 },
    {
      kind: "payment",
      eventId: "",
      reference: req.reference,
      providerReference: issued.providerReference,
      outcome: "paid",
      amountKobo: 150000,
      currency: "NGN",
      at: 0,
    },
  );
  const state = await seerbit.query(account, req.reference, quick());
  assert.equal(state.state, "paid");
  assert.equal(state.amountKobo, 150000);
  assert.ok(state.paidAt && Math.abs(state.paidAt - Date.now()) < 30_000);
});

test("TRANSFER through the chain: the account as SeerBit answered it; a part payment is money received, a running total", async () => {
  const req = request("TRANSFER", 250000);
  const issued = await seerbit.issue(account, req, quick());
  assert.ok(issued.channel === "TRANSFER");
  assert.match(issued.accountNumber, /^\d{10}$/);
  assert.equal(issued.bankName, "Owo Sandbox Bank");
  assert.equal(issued.accountName, "OWO(Chained Bank)");
  assert.ok(issued.expiresAt && issued.expiresAt > Date.now());
  let from = notices.length;
  await simulate(req.reference, { outcome: "pay", amount: "700.00" });
  const part = await nextNotice(from);
  assert.equal(part.kind === "payment" && part.amountKobo, 70000);
  const partState = await seerbit.query(account, req.reference, quick());
  assert.deepEqual([partState.state, partState.amountKobo], ["paid", 70000]);
  from = notices.length;
  await simulate(req.reference, { outcome: "pay" });
  const whole = await nextNotice(from);
  assert.equal(whole.kind === "payment" && whole.amountKobo, 250000);
  assert.equal((await seerbit.query(account, req.reference, quick())).state, "paid");
});

test("refund through the chain: accepted PENDING under Owo's refundReference, resent safely, settled by the second Owo's refund.processed", async () => {
  const req = request("USSD", 80000);
  const issued = await seerbit.issue(account, req, quick());
  let from = notices.length;
  await simulate(req.reference, { outcome: "pay" });
  await nextNotice(from);
  const refund = {
    reference: req.reference,
    providerReference: issued.providerReference,
    amountKobo: 30000,
    refundReference: `RFD${process.pid}${seq}`,
    reason: "one item back",
  };
  from = notices.length;
  const refundId = `${req.reference}/${refund.refundReference}`;
  assert.deepEqual(await seerbit.refund?.(account, refund, quick()), { refundId, state: "pending" });
  assert.deepEqual(await seerbit.refund?.(account, refund, quick()), { refundId, state: "pending" });
  const reading = await nextNotice(from);
  assert.deepEqual(
    { ...reading, eventId: "" },
    { kind: "refund", eventId: "", refundId, providerReference: issued.providerReference, amountKobo: 30000, state: "processed" },
  );
  await assert.rejects(
    seerbit.refund?.(account, { ...refund, amountKobo: 50001, refundReference: `${refund.refundReference}b` }, quick()) ??
      Promise.resolve(),
    (e: unknown) => e instanceof ProviderRefused && /409 S15/.test(e.message),
  );
  assert.deepEqual(
    await seerbit.queryRefund?.(account, refundId, quick()),
    { refundId, state: "processed" },
    "the second Owo's own record, asked",
  );
  const lookup = { ...refund, refundReference: `${refund.refundReference}-never`, since: Date.now() - 60_000, knownRefundIds: [] };
  assert.equal(await seerbit.findRefund?.(account, lookup, quick()), null, "a refund the second Owo never had is certainly not there");
});

test("a SeerBit notice is unsigned: a made-up one reads the same, so only query() tells the truth; a non-notice is rejected", async () => {
  const req = request("USSD", 99000);
  const issued = await seerbit.issue(account, req, quick());
  const forged = {
    notificationItems: [
      {
        notificationRequestItem: {
          eventType: "transaction",
          eventId: "evt_forged",
          data: {
            event: "payment.successful",
            paymentReference: req.reference,
            linkingReference: issued.providerReference,
            amountPaid: "990.00",
            currency: "NGN",
          },
        },
      },
    ],
  };
  const reading = seerbit.readNotice(account, Buffer.from(JSON.stringify(forged)), {});
  assert.equal(reading.kind === "payment" && reading.outcome, "paid");
  assert.equal((await seerbit.query(account, req.reference, quick())).state, "pending");
  assert.throws(() => seerbit.readNotice(account, Buffer.from('{"event":"charge.success"}'), {}), NoticeRejected);
  assert.throws(() => seerbit.readNotice(account, Buffer.from("not json"), {}), NoticeRejected);
});

test("the same request again replays SeerBit's first answer; another request with that reference is refused (S14)", async () => {
  const req = request("TRANSFER", 120000);
  const first = await seerbit.issue(account, req, quick());
  assert.deepEqual(await seerbit.issue(account, req, quick()), first);
  await assert.rejects(
    seerbit.issue(account, { ...req, amountKobo: 120100 }, quick()),
    (e: unknown) => e instanceof ProviderRefused && /409 S14/.test(e.message),
  );
  assert.equal((await seerbit.query(account, "never-issued-here", quick())).state, "not_found");
});

test("one token serves every call until shortly before it expires; then the connector exchanges the keys again", async () => {
  const exchanges = () =>
    owoB
      .output()
      .split("\n")
      .filter((l) => l.includes('"url":"/api/v2/encrypt/keys"')).length;
  // B logs each request once answered, through a pipe that may lag: wait for a query's own line, and every exchange
  // made before that query is logged by then too.
  const logged = (reference: string) =>
    eventually(`B's log of ${reference}`, () => owoB.output().includes(`"url":"/api/v3/payments/query/${reference}"`));
  await seerbit.query(account, "warm-up", quick());
  await logged("warm-up");
  const before = exchanges();
  for (let i = 0; i < 5; i++) await seerbit.query(account, `token-${i}`, quick());
  await logged("token-4");
  assert.equal(exchanges(), before, "no exchange while the token lives");
  moveClock(24 * 3600 * 1000); // Owo's clock past the token's expiry (B's own clock has not moved: B still honours it)
  try {
    await seerbit.query(account, "token-later", quick());
    await logged("token-later");
    assert.equal(exchanges(), before + 1);
  } finally {
    moveClock(-24 * 3600 * 1000);
  }
});

test("wrong keys are refused; a frozen provider and a dead one are ProviderUnavailable; test connection tells a good key from a bad one", async () => {
  const wrong = { ...account, credentials: { ...account.credentials, secretKey: "sk_test_not_this_one" } };
  await assert.rejects(
    seerbit.issue(wrong, request("USSD"), quick()),
    (e: unknown) => e instanceof ProviderRefused && /401 S1/.test(e.message),
  );
  await assert.rejects(seerbit.testConnection(wrong, quick()), ProviderRefused);
  await seerbit.testConnection(account, quick());
  owoB.child.kill("SIGSTOP");
  try {
    await assert.rejects(
      seerbit.query(account, "anything", AbortSignal.timeout(300)),
      (e: unknown) => e instanceof ProviderUnavailable && /no answer in time/.test(e.message),
    );
  } finally {
    owoB.child.kill("SIGCONT");
  }
  owoB.child.kill("SIGKILL"); // the provider's host dies
  await owoB.exited;
  await assert.rejects(
    seerbit.issue(account, request("TRANSFER"), quick()),
    (e: unknown) => e instanceof ProviderUnavailable && /ECONNREFUSED/.test(e.message),
  );
});
