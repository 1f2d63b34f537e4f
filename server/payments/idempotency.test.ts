// Idempotent initiation (API.md "Idempotency"): the same request answers the first answer again, over both doors, also in a race.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { TRPCClientError } from "@trpc/client";
import { call, createTestMerchant, tokenFor, type Answer, type Owo, type TestMerchant } from "../testing/harness";
import { startInitiating, transferBody, trpcFailure, trpcInput, ussdBody, type Body, type InitiatingMerchant } from "../testing/initiation";
import type { InitiatePaymentInput } from "./initiate-schema";

let owo: Owo, m: TestMerchant, token: string, trpc: InitiatingMerchant["trpc"];
before(async () => ({ owo, merchant: m, token, trpc } = await startInitiating()));
after(() => owo.stop());

const initiateRaw = (raw: string, as = token) => call(owo, "POST", "/api/v2/payments/initiates", { token: as, raw });
const initiate = (body: Body, as = token) => initiateRaw(JSON.stringify(body), as);
const viaTrpc = (body: Body) => trpc.initiatePayment.mutate(trpcInput(body) as InitiatePaymentInput);
const verify = (ref: unknown, as = token) => call(owo, "GET", `/api/v3/payments/query/${String(ref)}`, { token: as });

function assertConflict(res: Answer) {
  assert.equal(res.status, 409, res.text);
  assert.equal(res.json.status, "ERROR");
  assert.equal(res.json.data.code, "S14");
  assert.deepEqual(
    res.json.data.errors.map((e: { field: string }) => e.field),
    ["paymentReference"],
  );
}

test("a replay answers the very same bytes: amounts as kobo, key order, whitespace and extra fields do not count", async () => {
  for (const body of [ussdBody(m.publicKey, { amount: "1500" }), transferBody(m.publicKey, { amount: "1500" })]) {
    const first = await initiate(body);
    assert.equal(first.status, 200, first.text);
    const reordered = Object.fromEntries(Object.entries({ ...body, amount: "1500.00", productId: "Foods", note: "again" }).reverse());
    for (const raw of [
      JSON.stringify(body),
      JSON.stringify({ ...body, amount: "1500.0" }),
      JSON.stringify(reordered, null, 4),
      `\n ${JSON.stringify(reordered)}\t`,
    ]) {
      const again = await initiateRaw(raw);
      assert.equal(again.status, 200, again.text);
      assert.equal(again.text, first.text);
    }
    if (body.paymentType === "TRANSFER")
      assert.equal((await initiate({ ...body, bankCode: null })).text, first.text, "null bankCode = absent");
  }
});

test("the same request over REST and then tRPC, or tRPC and then REST, is one payment with one payments object", async () => {
  const restFirst = ussdBody(m.publicKey);
  const rest = await initiate(restFirst);
  assert.deepEqual(await viaTrpc(restFirst), rest.json.data.payments);
  assert.deepEqual(await viaTrpc({ ...restFirst, amount: "1500.00" }), rest.json.data.payments);

  const trpcFirst = transferBody(m.publicKey);
  const payments = await viaTrpc(trpcFirst);
  const replay = await initiate(trpcFirst);
  assert.equal(replay.status, 200, replay.text);
  assert.equal(replay.text, JSON.stringify({ status: "SUCCESS", data: { code: "00", message: "ACCOUNT OPENED SUCCESSFULLY", payments } }));
});

test("a replay after the payment moved on still answers the first answer, and issues nothing new", async () => {
  const body = ussdBody(m.publicKey);
  const first = await initiate(body);
  const paid = await call(owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token,
    body: { outcome: "pay" },
  });
  assert.equal(paid.status, 200, paid.text);
  assert.equal((await verify(body.paymentReference)).json.data.payments.status, "SUCCESSFUL");
  assert.equal((await initiate(body)).text, first.text);
  assert.deepEqual(await viaTrpc(body), first.json.data.payments);
  const after = await verify(body.paymentReference);
  assert.equal(after.json.data.payments.status, "SUCCESSFUL", "the replay did not reopen or reissue the payment");
  assert.equal(after.json.data.payments.linkingReference, first.json.data.payments.linkingReference);
});

test("a different request with a used reference is 409 S14 over both doors, and the first payment stands", async () => {
  const body = ussdBody(m.publicKey);
  const first = await initiate(body);
  const changes: Body[] = [
    { amount: "1500.01" },
    { fullName: "Ada Obi-Eze" },
    { mobileNumber: "08012345679" },
    { email: "ada@example.org" },
    { callbackUrl: "https://shop.example.ng/owo/other" },
    { redirectUrl: "https://shop.example.ng/other" },
    { bankCode: "058" },
    { paymentType: "TRANSFER", bankCode: undefined },
  ];
  for (const change of changes) {
    assertConflict(await initiate({ ...body, ...change }));
    const t = await trpcFailure(viaTrpc({ ...body, ...change }));
    assert.equal(t.code, "CONFLICT");
    assert.equal(t.httpStatus, 409);
    assert.equal(t.apiCode, "S14");
    assert.deepEqual(
      t.errors.map((e) => e.field),
      ["paymentReference"],
    );
  }
  assert.equal((await initiate(body)).text, first.text);
  const v = await verify(body.paymentReference);
  assert.equal(v.json.data.payments.amount, "1500.00");
  assert.equal(v.json.data.payments.paymentType, "USSD");
});

test("references are case-sensitive: ORD-1 and ord-1 are two payments", async () => {
  const lower = ussdBody(m.publicKey);
  const upper = { ...lower, paymentReference: String(lower.paymentReference).toUpperCase() };
  const a = await initiate(lower);
  const b = await initiate(upper);
  assert.equal(b.status, 200, b.text);
  assert.notEqual(a.json.data.payments.linkingReference, b.json.data.payments.linkingReference);
  assert.equal(b.json.data.payments.paymentReference, upper.paymentReference);
});

test("the same reference at two merchants is two payments, each seeing only its own", async () => {
  const other = await createTestMerchant();
  const otherToken = await tokenFor(owo, other);
  const mine = ussdBody(m.publicKey);
  const theirs = { ...mine, publicKey: other.publicKey, amount: "2000" };
  const a = await initiate(mine);
  const b = await initiate(theirs, otherToken);
  assert.equal(b.status, 200, b.text);
  assert.notEqual(a.json.data.payments.linkingReference, b.json.data.payments.linkingReference);
  assert.notEqual(a.json.data.payments.providerreference, b.json.data.payments.providerreference);
  assert.equal((await verify(mine.paymentReference)).json.data.payments.amount, "1500.00");
  assert.equal((await verify(mine.paymentReference, otherToken)).json.data.payments.amount, "2000.00");
});

test("100 identical requests at once with a new reference: one payment, 100 identical answers, no 5xx", async () => {
  const body = transferBody(m.publicKey);
  const answers = await Promise.all(Array.from({ length: 100 }, () => initiate(body)));
  for (const res of answers) assert.equal(res.status, 200, res.text);
  assert.equal(new Set(answers.map((res) => res.text)).size, 1, "every answer is byte-identical");
  const v = await verify(body.paymentReference);
  assert.equal(v.json.data.payments.linkingReference, answers[0]?.json.data.payments.linkingReference);
});

test("two different requests racing for one new reference: one wins, every other answer is the winner's or 409", async () => {
  const a = ussdBody(m.publicKey, { amount: "1000" });
  const b = { ...a, amount: "2000" };
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => Promise.all([initiate(i % 2 ? a : b), viaTrpc(i % 2 ? b : a).catch((e: unknown) => e)])),
  );
  const rest = answers.map(([res]) => res);
  for (const res of rest) assert.ok(res.status === 200 || res.status === 409, res.text);
  const wins = new Set(rest.filter((res) => res.status === 200).map((res) => res.text));
  assert.equal(wins.size, 1, "all successes are the one winner's answer");
  const winner = (await verify(a.paymentReference)).json.data.payments.amount;
  for (const res of rest) {
    if (res.status === 409) assertConflict(res);
    else assert.equal(res.json.data.payments.amount, winner);
  }
  for (const [, t] of answers) {
    if (t instanceof TRPCClientError) assert.equal(t.data?.apiCode, "S14", t.message);
    else assert.equal((t as { amount: string }).amount, winner);
  }
});
