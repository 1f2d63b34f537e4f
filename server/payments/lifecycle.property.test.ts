// Model-based test: random credits, declines, cancels, repeats, clock moves and verifies against a small reference model.
// dialect: sqlite only — it reads the database file through SQLite itself (rawSqlite).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import type { PaymentStatus } from "../../db/schema";
import { cancelPayment } from "./lifecycle";
import { applyBankNotice } from "./sandbox-notices";
import { ApiError } from "../api-error";
import { verifyPayment } from "./verify";
import { findPayment } from "./lookup";
import { openPayment } from "../testing/in-process-payments";
import { rawSqlite as sqlite } from "../../db/client";
import { settings } from "../settings";

let owo: Owo;
let merchantId: string;
before(async () => {
  owo = await startOwo();
  merchantId = (await createTestMerchant()).merchantId;
});
after(() => owo.stop());

type Command =
  | { kind: "credit"; amount: number; txn: number }
  | { kind: "decline"; txn: number }
  | { kind: "wait"; seconds: number }
  | { kind: "cancel" }
  | { kind: "verify" };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("credit" as const),
      amount: fc.integer({ min: 1, max: 300_000 }),
      txn: fc.integer({ min: 0, max: 6 }),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant("decline" as const), txn: fc.integer({ min: 0, max: 6 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("wait" as const), seconds: fc.integer({ min: 0, max: 1200 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("verify" as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("cancel" as const) }), weight: 1 },
);

const ALLOWED: Record<PaymentStatus, PaymentStatus[]> = {
  PENDING: ["PARTIALLY_PAID", "SUCCESSFUL", "FAILED", "EXPIRED", "CANCELLED"],
  PARTIALLY_PAID: ["SUCCESSFUL", "EXPIRED"],
  SUCCESSFUL: [],
  FAILED: [],
  EXPIRED: [],
  CANCELLED: [],
};

let runs = 0;

test("status moves only along allowed edges; money, events and outbox rows always add up", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("USSD" as const, "TRANSFER" as const),
      fc.integer({ min: 100_00, max: 5_000_00 }),
      fc.array(command, { maxLength: 25 }),
      async (type, amountKobo, commands) => {
        const ref = `prop-${++runs}`;
        const start = Date.now();
        const target = await openPayment(merchantId, type, amountKobo, ref, start);
        const ttl = (type === "USSD" ? settings().ussdTtlSeconds : settings().transferTtlSeconds) * 1000;

        // The reference model.
        const model = { status: "PENDING" as PaymentStatus, paid: 0, refund: 0, changes: 1, successes: 0 };
        const seen = new Set<string>();
        let now = start;
        const open = () => model.status === "PENDING" || model.status === "PARTIALLY_PAID";
        const expireIfDue = () => {
          if (open() && now >= start + ttl) {
            model.status = "EXPIRED";
            model.changes++;
          }
        };

        for (const c of commands) {
          const before = (await findPayment({ merchantId, mode: "test" }, ref)).status;
          if (c.kind === "wait") {
            now += c.seconds * 1000;
            continue;
          }
          if (c.kind === "verify") {
            await verifyPayment({ merchantId, mode: "test" }, ref, now);
            expireIfDue();
          } else if (c.kind === "cancel") {
            expireIfDue();
            if (model.status === "PENDING") {
              await cancelPayment({ merchantId, mode: "test" }, ref, now);
              model.status = "CANCELLED";
              model.changes++;
            } else {
              await assert.rejects(
                () => cancelPayment({ merchantId, mode: "test" }, ref, now),
                (e) => e instanceof ApiError && e.code === "S15",
              );
            }
          } else {
            if (c.kind === "decline" && type !== "USSD") continue;
            const txn = `${ref}-${c.kind}-${c.txn}`;
            const amount = c.kind === "credit" ? c.amount : 0;
            const out = await applyBankNotice({ provider: "sandbox", transactionId: txn, kind: c.kind, amountKobo: amount, target }, now);
            assert.equal(out.applied, !seen.has(txn), "a notice is applied exactly once");
            if (!seen.has(txn)) {
              seen.add(txn);
              expireIfDue();
              if (c.kind === "credit") {
                if (open()) {
                  model.paid += amount;
                  model.status = model.paid >= amountKobo ? "SUCCESSFUL" : "PARTIALLY_PAID";
                  if (model.status === "SUCCESSFUL") model.successes++;
                } else {
                  model.refund += amount;
                }
                model.changes++;
              } else if (model.status === "PENDING") {
                model.status = "FAILED";
                model.changes++;
              }
            }
          }
          const after = await findPayment({ merchantId, mode: "test" }, ref);
          if (after.status !== before) assert.ok(ALLOWED[before].includes(after.status), `${before} → ${after.status}`);
          assert.equal(after.status, model.status);
          assert.equal(after.amountPaidKobo, model.paid);
          assert.equal(after.amountToRefundKobo, model.refund);
        }

        const p = await findPayment({ merchantId, mode: "test" }, ref);
        const events = sqlite().prepare("select type, sequence from payment_events where payment_id = ? order by sequence").all(p.id) as {
          type: string;
          sequence: number;
        }[];
        const outbox = sqlite().prepare("select event, sequence from outbox where payment_id = ? order by sequence").all(p.id) as {
          event: string;
          sequence: number;
        }[];
        assert.equal(model.successes <= 1, true, "SUCCESSFUL at most once");
        assert.equal(events.filter((e) => e.type === "successful").length, model.successes);
        assert.equal(events.length, model.changes, "one event per move");
        assert.deepEqual(
          events.map((e) => e.sequence),
          events.map((_, i) => i + 1),
          "sequences have no gaps",
        );
        assert.equal(p.eventSequence, events.length);
        assert.deepEqual(
          outbox.map((o) => [o.event, o.sequence]),
          events.slice(1).map((e) => [`payment.${e.type}`, e.sequence]),
          "one outbox row per published event",
        );
      },
    ),
    { numRuns: 300 },
  );
});
