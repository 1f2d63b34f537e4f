// not_settled: with no grace, a credit the provider's settlement left out is an exception at once, closed by Owo when a
// later settlement holds it; with grace, only after that many Lagos working days.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { reconciliationExceptions } from "../../db/schema";
import { clock } from "../clock";
import { call } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody, type InitiatingMerchant } from "../testing/initiation";
import { checkNotSettled, settlementDeadline } from "./not-settled";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating({ OWO_SETTLEMENT_GRACE_DAYS: "0" });
});
after(() => s.owo.stop());

const paid = (amount: string) => paidInSandbox(s, transferBody(s.merchant.publicKey, { amount }));

const notSettled = () =>
  db()
    .select()
    .from(reconciliationExceptions)
    .where(and(eq(reconciliationExceptions.merchantId, s.merchant.merchantId), eq(reconciliationExceptions.kind, "not_settled")));

test("a credit a settlement left out is not_settled at once with no grace, and closed by the settlement that holds it", async () => {
  const kept = await paid("1200.00");
  const left = await paid("800.00");
  const first = await call(s.owo, "POST", "/api/v2/sandbox/settlements", { token: s.token, body: { omit: [left] } });
  assert.equal(first.status, 200, first.text);
  const [open] = await notSettled();
  assert.ok(open, "the omitted credit is an exception");
  assert.deepEqual([open.paymentReference, open.expectedKobo, open.resolvedAt], [left, 80_000, null]);
  assert.equal((await notSettled()).length, 1, `${kept} was settled`);
  const queue = await s.trpc.reconciliation.exceptions.query({ kind: "not_settled" });
  assert.deepEqual(
    queue.map((e) => [e.paymentReference, e.age]),
    [[left, 0]],
  );
  const second = await call(s.owo, "POST", "/api/v2/sandbox/settlements", { token: s.token, body: {} });
  assert.equal(second.status, 200, second.text);
  const [closed] = await notSettled();
  assert.ok(closed?.resolvedAt, "the bank paid it out the next time: Owo closed the exception");
  assert.equal(
    closed?.note,
    `Settled in ${second.json.data.settlement.settlementId} (${second.json.data.settlement.providerSettlementId} at the provider)`,
  );
  assert.deepEqual(await s.trpc.reconciliation.exceptions.query({ kind: "not_settled" }), [], "the open queue is empty");
  assert.equal((await s.trpc.reconciliation.exceptions.query({ kind: "not_settled", status: "resolved" })).length, 1);
});

test("with grace days, a credit is overdue only that many Lagos working days after it arrived", async () => {
  // Friday 20 Nov 2026, 14:00 Lagos: three working days later is Wednesday 25 Nov, 14:00.
  const friday = Date.UTC(2026, 10, 20, 13);
  assert.equal(new Date(settlementDeadline(friday, 3)).toISOString(), "2026-11-25T13:00:00.000Z");
  // Saturday counts from Monday: Monday, Tuesday, Wednesday.
  assert.equal(new Date(settlementDeadline(friday + 86_400_000, 3)).toISOString(), "2026-11-25T13:00:00.000Z");
  assert.equal(settlementDeadline(friday, 0), friday);

  const ref = await paid("650.00");
  const source = { merchantId: s.merchant.merchantId, mode: "test" as const, provider: "sandbox" as const, providerAccountId: null };
  const isOpen = async () => (await notSettled()).some((e) => e.paymentReference === ref && e.resolvedAt === null);
  const now = clock.now();
  assert.equal(await write((tx) => checkNotSettled(tx, source, now + 86_400_000, 3)), 0, "a day later: within grace");
  assert.equal(await isOpen(), false);
  assert.equal(await write((tx) => checkNotSettled(tx, source, now + 7 * 86_400_000, 3)), 1, "a week later: overdue");
  assert.equal(await isOpen(), true);
  assert.equal(await write((tx) => checkNotSettled(tx, source, now + 8 * 86_400_000, 3)), 0, "recorded once");
});
