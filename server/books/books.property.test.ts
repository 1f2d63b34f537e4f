// Property test of the books (issue #23): random initiations, part payments, late money, cancels, expiries and refunds
// racing each other, with the ledger's invariants checked after every step, on SQLite and (fewer runs) PostgreSQL.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { sql, eq, and } from "drizzle-orm";
import { db } from "../../db/client";
import { ledgerBalances, ledgerEntries, ledgerHeads, ledgerPostings, payments, refunds } from "../../db/schema";
import { cancelPayment } from "../payments/lifecycle";
import { applyBankNotice } from "../payments/sandbox-notices";
import { verifyPayment } from "../payments/verify";
import { findPayment } from "../payments/lookup";
import { openPayment } from "../testing/in-process-payments";
import { feeFor, SANDBOX_SCHEDULE } from "../fees";
import { requestRefund } from "../payments/refunds";
import { formatKobo, parseAmount } from "../money";
import { followRefunds } from "../payments/refund-follower";
import { moveClock } from "../clock";

let owo: Owo;
let merchantId: string;
before(async () => {
  owo = await startOwo();
  merchantId = (await createTestMerchant("Property Books")).merchantId;
});
after(() => owo.stop());

type Step =
  | { kind: "credit"; amount: number; txn: number }
  | { kind: "wait"; seconds: number }
  | { kind: "cancel" }
  | { kind: "verify" }
  /** Refunds asked for at once (null: all that is refundable), then paid back by the sandbox bank. */
  | { kind: "refunds"; amounts: (number | null)[] };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("credit" as const),
      amount: fc.integer({ min: 1, max: 400_000 }),
      txn: fc.integer({ min: 0, max: 4 }),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant("wait" as const), seconds: fc.integer({ min: 0, max: 1500 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("verify" as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant("refunds" as const),
      amounts: fc.array(fc.option(fc.integer({ min: 1, max: 300_000 }), { freq: 4 }), { minLength: 1, maxLength: 4 }),
    }),
    weight: 1,
  },
);

let runs = 0;

test("after every step: entries balance, balances equal their entries, the provider holds credits less fees", async (t) => {
  const mine = and(eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.mode, "test"));
  const model = { received: 0, fees: 0, refunded: 0 };
  const raced = { paidBack: 0, refused: 0 };

  const head = async () => (await db().select().from(ledgerHeads).where(eq(ledgerHeads.merchantId, merchantId)))[0]?.sequence ?? 0;
  const invariants = async () => {
    const unbalanced = await db()
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .innerJoin(ledgerPostings, eq(ledgerPostings.entryId, ledgerEntries.id))
      .where(mine)
      .groupBy(ledgerEntries.id)
      .having(sql`sum(${ledgerPostings.amountKobo}) <> 0`);
    assert.deepEqual(unbalanced, [], "every entry sums to zero");
    const sums = await db()
      .select({ account: ledgerPostings.account, total: sql<string>`sum(${ledgerPostings.amountKobo})` })
      .from(ledgerPostings)
      .innerJoin(ledgerEntries, eq(ledgerPostings.entryId, ledgerEntries.id))
      .where(mine)
      .groupBy(ledgerPostings.account);
    const byAccount = new Map(sums.map((s) => [s.account, Number(s.total)]));
    assert.equal(
      [...byAccount.values()].reduce((a, b) => a + b, 0),
      0,
      "Σ debits = Σ credits",
    );
    const stored = await db().select().from(ledgerBalances).where(eq(ledgerBalances.merchantId, merchantId));
    for (const b of stored) assert.equal(b.balanceKobo, byAccount.get(b.account) ?? 0, `balance of ${b.account} equals its entries`);
    assert.equal(stored.length, byAccount.size, "every account with postings has its balance");
    assert.equal(
      byAccount.get("provider:sandbox") ?? 0,
      model.received - model.fees - model.refunded,
      "the provider holds credits less fees less refunds paid back",
    );
    assert.equal(
      // 0 - x rather than -x: an empty account's -0 is not strictly equal to 0
      0 - (byAccount.get("sales") ?? 0) - (byAccount.get("refund_due") ?? 0) - (byAccount.get("refunds") ?? 0),
      model.received - model.refunded,
      "sales + refund_due + refunds = money received less paid back",
    );
    assert.equal(byAccount.get("fees") ?? 0, model.fees);
    const [feeKept] = await db()
      .select({ total: sql<string>`coalesce(sum(${payments.feeKobo}), 0)` })
      .from(payments)
      .where(eq(payments.merchantId, merchantId));
    assert.equal(Number(feeKept?.total), model.fees, "the payments' feeAmount adds up to the books' fees");
  };

  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("USSD" as const, "TRANSFER" as const),
      fc.integer({ min: 100_00, max: 5_000_00 }),
      fc.array(step, { maxLength: 15 }),
      async (type, amountKobo, steps) => {
        const ref = `books-prop-${++runs}`;
        let now = Date.now();
        const before = await head();
        const target = await openPayment(merchantId, type, amountKobo, ref, now);
        assert.equal(await head(), before, "initiation posts nothing");
        let arrived = 0;
        let refundNo = 0;
        for (const s of steps) {
          const sequence = await head();
          if (s.kind === "refunds") {
            const asked = await Promise.allSettled(
              s.amounts.map((a) =>
                requestRefund(
                  { merchantId, mode: "test" },
                  ref,
                  { ...(a === null ? {} : { amount: formatKobo(a) }), reason: "property race", refundReference: `${ref}-r${++refundNo}` },
                  now,
                ),
              ),
            );
            assert.equal(await head(), sequence, "asking for a refund moves no money until it is paid back");
            const accepted = asked.flatMap((r) => (r.status === "fulfilled" ? [r.value.refund] : []));
            const p = await findPayment({ merchantId, mode: "test" }, ref);
            const reserved = await db()
              .select({ amountKobo: refunds.amountKobo, status: refunds.status })
              .from(refunds)
              .where(eq(refunds.paymentId, p.id));
            const held = reserved.filter((r) => r.status !== "FAILED").reduce((a, r) => a + r.amountKobo, 0);
            assert.ok(held <= arrived, `refunds (${held}) never exceed what arrived (${arrived})`);
            // The sandbox bank settles a refund a second after accepting it: its clock is moved past that, and the
            // follower asks, so the books take each refund in this step (its own notice then finds nothing to do).
            moveClock(2_000);
            try {
              for (let pass = 0; pass < 5 && (await followRefunds(now + 3_600_000)) > 0; pass++);
            } finally {
              moveClock(-2_000);
            }
            const after = await db().select({ status: refunds.status }).from(refunds).where(eq(refunds.paymentId, p.id));
            assert.ok(
              after.every((r) => r.status === "PROCESSED"),
              "every accepted refund was paid back",
            );
            const paidBack = accepted.reduce((a, r) => a + (parseAmount(r.amount) ?? NaN), 0);
            model.refunded += paidBack;
            raced.paidBack += accepted.length;
            raced.refused += asked.length - accepted.length;
            assert.equal(await head(), sequence + accepted.length, "one entry per refund paid back");
          } else if (s.kind === "wait") now += s.seconds * 1000;
          else if (s.kind === "verify") await verifyPayment({ merchantId, mode: "test" }, ref, now);
          else if (s.kind === "cancel") {
            const cancelled = await cancelPayment({ merchantId, mode: "test" }, ref, now).then(
              () => true,
              () => false,
            );
            assert.equal(await head(), sequence, cancelled ? "a cancel moves no money" : "a rejected cancel changes nothing");
          } else {
            const out = await applyBankNotice(
              { provider: "sandbox", transactionId: `${ref}-${s.txn}`, kind: "credit", amountKobo: s.amount, target },
              now,
            );
            if (out.applied) {
              arrived += s.amount;
              model.received += s.amount;
              model.fees += feeFor(SANDBOX_SCHEDULE, s.amount);
            }
            assert.equal(await head(), sequence + (out.applied ? 1 : 0), "one entry per credit applied, none for a repeat");
          }
          await invariants();
        }
      },
    ),
    { numRuns: process.env.OWO_TEST_POSTGRES_URL ? 15 : 120 },
  );
  t.diagnostic(`racing refunds: ${raced.paidBack} paid back, ${raced.refused} refused`);
});
