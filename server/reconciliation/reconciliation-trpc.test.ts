// The dashboard's reconciliation door: the same report as REST, the exceptions queue, a resolve by an owner or admin
// audit-logged once under their name (developers and viewers refused), and the CSV statement upload.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { auditLog } from "../../db/schema";
import { clock, moveClock } from "../clock";
import { DAY_MS } from "../payments/calendar";
import { call } from "../testing/harness";
import { exceptionQuery, listExceptions } from "./exceptions";
import { startInitiating, transferBody, trpcFailure, type InitiatingMerchant } from "../testing/initiation";
import { joinAs, userClient } from "../testing/sessions";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

const lagosToday = () => new Date(clock.now() + 3_600_000).toISOString().slice(0, 10);

test("report, queue, resolve by owners and admins only, and the statement CSV", async () => {
  const body = transferBody(s.merchant.publicKey, { amount: "3000.00" });
  assert.equal((await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body })).status, 200);
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token: s.token,
    body: { outcome: "pay" },
  });
  const settled = await s.trpc.sandbox.settle.mutate({ shortBy: "25.00", feeBy: "5.00" });
  const day = lagosToday();
  const report = await s.trpc.reconciliation.report.query({ from: day, to: day });
  const rest = await call(s.owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token: s.token });
  assert.deepEqual(JSON.parse(JSON.stringify(report)), rest.json.data.report, "one core, two doors");
  const queue = await s.trpc.reconciliation.exceptions.query({});
  assert.deepEqual(queue.map((e) => e.kind).sort(), ["fee_mismatch", "net_mismatch"]);
  assert.ok(queue.every((e) => e.age === 0 && e.settlementId === settled.settlementId));

  const viewer = await userClient(s.owo, await joinAs(s.merchant, "viewer"));
  const developer = await userClient(s.owo, await joinAs(s.merchant, "developer"));
  const admin = await userClient(s.owo, await joinAs(s.merchant, "admin"));
  const [fee, net] = [queue.find((e) => e.kind === "fee_mismatch"), queue.find((e) => e.kind === "net_mismatch")];
  assert.ok(fee && net);
  assert.equal((await viewer.reconciliation.exceptions.query({})).length, 2, "viewers read the queue");
  for (const refused of [viewer, developer]) {
    const no = await trpcFailure(refused.reconciliation.resolve.mutate({ exceptionId: fee.exceptionId, note: "mine" }));
    assert.equal(no.apiCode, "S3");
  }
  const bad = await trpcFailure(admin.reconciliation.resolve.mutate({ exceptionId: fee.exceptionId, note: "" }));
  assert.deepEqual(
    bad.errors.map((e) => e.field),
    ["note"],
  );
  const resolved = await admin.reconciliation.resolve.mutate({ exceptionId: fee.exceptionId, note: "Provider's fee error, refunded" });
  assert.ok(resolved.resolvedAt);
  assert.equal(resolved.note, "Provider's fee error, refunded");
  const audited = await db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, s.merchant.merchantId), eq(auditLog.action, "reconciliation.resolve")));
  assert.equal(audited.length, 1, "one audit row, written with the resolve");
  assert.notEqual(audited[0]?.userId, null);
  assert.equal((await trpcFailure(admin.reconciliation.resolve.mutate({ exceptionId: fee.exceptionId, note: "again" }))).httpStatus, 409);

  const csv = `date,amount,reference,narration\n${day},${settled.netAmount},NIP/1,"OWO SANDBOX, SETTLEMENT"\n${day},"1,200.00",POS/2,Shop\n`;
  const lines = await admin.reconciliation.importStatement.mutate({ accountNumber: "0123456789", csv });
  assert.deepEqual(
    lines.map((l) => [l.match, l.settlementId, l.amount]),
    [
      ["matched", settled.settlementId, settled.netAmount],
      ["other_income", null, "1200.00"],
    ],
  );
  const noHeader = await trpcFailure(
    admin.reconciliation.importStatement.mutate({ accountNumber: "0123456789", csv: "2026-11-20,1.00,a,b" }),
  );
  assert.deepEqual(
    noHeader.errors.map((e) => e.field),
    ["csv"],
  );
  assert.equal((await trpcFailure(viewer.reconciliation.importStatement.mutate({ accountNumber: "0123456789", csv }))).apiCode, "S3");
});

test("a statement previewed matches what its import then matches, and the preview changes nothing", async () => {
  const body = transferBody(s.merchant.publicKey, { amount: "4200.00" });
  assert.equal((await call(s.owo, "POST", "/api/v2/payments/initiates", { token: s.token, body })).status, 200);
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token: s.token,
    body: { outcome: "pay" },
  });
  const settled = await s.trpc.sandbox.settle.mutate({});
  const day = lagosToday();
  const csv = `date,amount,reference,narration\n${day},${settled.netAmount},NIP/9,OWO SANDBOX SETTLEMENT\n${day},777.00,NIP/10,SANDBOX PAYOUT\n`;
  const admin = await userClient(s.owo, await joinAs(s.merchant, "admin"));
  const openBefore = await admin.reconciliation.exceptions.query({});
  const preview = await admin.reconciliation.previewStatement.mutate({ accountNumber: "0123456780", csv });
  assert.deepEqual(
    preview.map((l) => [l.match, l.settlementId]),
    [
      ["matched", settled.settlementId],
      ["unmatched", null],
    ],
  );
  assert.equal((await admin.settlements.byId.query({ settlementId: settled.settlementId })).bankReference, null, "not confirmed yet");
  assert.deepEqual(await admin.reconciliation.exceptions.query({}), openBefore, "no bank_unmatched opened by a preview");
  const again = await admin.reconciliation.previewStatement.mutate({ accountNumber: "0123456780", csv });
  assert.ok(
    again.every((l) => !l.duplicate),
    "a preview keeps no line",
  );

  const imported = await admin.reconciliation.importStatement.mutate({ accountNumber: "0123456780", csv });
  assert.deepEqual(
    imported.map((l) => [l.match, l.settlementId]),
    preview.map((l) => [l.match, l.settlementId]),
  );
  assert.equal((await admin.settlements.byId.query({ settlementId: settled.settlementId })).bankReference, "NIP/9");
  assert.equal((await admin.reconciliation.exceptions.query({ kind: "bank_unmatched" })).length, 1);
  const viewer = await userClient(s.owo, await joinAs(s.merchant, "viewer"));
  assert.equal((await trpcFailure(viewer.reconciliation.previewStatement.mutate({ accountNumber: "0123456780", csv }))).apiCode, "S3");

  // The queue by age: everything here opened today, so none has waited a day; two days on, all have, none three.
  const open = await admin.reconciliation.exceptions.query({});
  assert.ok(open.length > 0);
  assert.deepEqual(await admin.reconciliation.exceptions.query({ minAge: 1 }), []);
  // Two days on, sessions and tokens have lapsed: the core the door calls answers for them.
  moveClock(2 * DAY_MS + 60_000);
  try {
    const waiting = await listExceptions({ merchantId: s.merchant.merchantId, mode: "test" }, exceptionQuery.parse({ minAge: 2 }));
    assert.deepEqual(
      waiting.map((e) => [e.exceptionId, e.age]),
      open.map((e) => [e.exceptionId, 2]),
    );
    assert.deepEqual(await listExceptions({ merchantId: s.merchant.merchantId, mode: "test" }, exceptionQuery.parse({ minAge: 3 })), []);
  } finally {
    moveClock(-(2 * DAY_MS + 60_000));
  }
});
