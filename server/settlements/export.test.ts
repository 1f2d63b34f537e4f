// The finance team's sheets: settlements and their lines as CSV for the signed-in merchant and mode, narrowed by
// provider account like the list; machines refused as for the payments export.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { ApiError } from "../api-error";
import type { Caller } from "../auth/caller";
import { userCaller } from "../auth/callers";
import { call, createTestMerchant, tokenFor } from "../testing/harness";
import { paidInSandbox, startInitiating, transferBody, trpcClient, type InitiatingMerchant } from "../testing/initiation";
import { exportSettlementLinesFor, exportSettlementsFor } from "./export";
import { listSettlements, settlementSources } from "./view";

let s: InitiatingMerchant;
before(async () => {
  s = await startInitiating();
});
after(() => s.owo.stop());

const paid = (amount: string) => paidInSandbox(s, transferBody(s.merchant.publicKey, { amount }));

async function text(exported: { chunks: AsyncIterable<string> }): Promise<string[]> {
  let all = "";
  for await (const chunk of exported.chunks) all += chunk;
  return all.split("\r\n").filter((l) => l !== "");
}

test("settlements and their lines as CSV, the merchant's own only, as the list filters them", async () => {
  const first = await paid("2500.00");
  const clean = await s.trpc.sandbox.settle.mutate({});
  await paid("4000.00");
  const faulty = await s.trpc.sandbox.settle.mutate({ unknownLine: true });
  // Another merchant's settlement must not appear in this one's sheets.
  const other = await createTestMerchant();
  const otherToken = await tokenFor(s.owo, other);
  const body = transferBody(other.publicKey, { amount: "9999.00" });
  await call(s.owo, "POST", "/api/v2/payments/initiates", { token: otherToken, body });
  await call(s.owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, {
    token: otherToken,
    body: { outcome: "pay" },
  });
  const theirs = await trpcClient(s.owo, otherToken).sandbox.settle.mutate({});

  const person = (await userCaller(s.merchant.userId, {})) as Caller;
  const sheet = await text(await exportSettlementsFor(person, {}));
  assert.match(sheet[0] ?? "", /^Settlement ID,Provider,Provider account,/);
  assert.deepEqual(
    sheet.slice(1).map((l) => l.split(",")[0]),
    [faulty.settlementId, clean.settlementId],
    "newest first, the merchant's own",
  );
  assert.ok(!sheet.join("\n").includes(theirs.settlementId));
  assert.ok(sheet[2]?.includes(`,${clean.netAmount},1,`), sheet[2]);
  // Settled (UTC) as the API has it, and last the same instant on a Lagos clock (UTC+1), as the filters count days.
  const settledAt = (await s.trpc.settlements.byId.query({ settlementId: clean.settlementId })).settledAt ?? "";
  const inLagos = new Date(Date.parse(settledAt) + 3_600_000).toISOString().replace("T", " ").slice(0, 19);
  assert.match(sheet[0] ?? "", /,Open exceptions,Settled \(Lagos time\)$/);
  assert.ok(sheet[2]?.endsWith(`,1,${settledAt},,matched,0,${inLagos}`), sheet[2]);

  const exported = await exportSettlementLinesFor(person, {});
  assert.equal(exported.total, 3, "one line per credit, and the unknown one");
  const lines = await text(exported);
  assert.equal(lines.length, 4);
  const cleanLine = lines.find((l) => l.includes(first));
  assert.ok(cleanLine?.startsWith(`${clean.settlementId},sandbox,`), cleanLine);
  assert.ok(cleanLine?.endsWith(`,2500.00,137.50,2362.50,yes,${inLagos}`), cleanLine);
  assert.ok(
    lines.some((l) => l.startsWith(faulty.settlementId) && l.includes(",unknown,") && /,no,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(l)),
  );

  assert.deepEqual(await settlementSources({ merchantId: s.merchant.merchantId, mode: "test" }), [
    { providerId: "sandbox", provider: "sandbox" },
  ]);
  const none = await listSettlements({ merchantId: s.merchant.merchantId, mode: "test" }, { providerId: "prv_notthemerchants" });
  assert.deepEqual(none.settlements, []);
  assert.equal((await text(await exportSettlementsFor(person, { providerId: "prv_notthemerchants" }))).length, 1, "the header");

  // A status the page never offers, as a hand-edited URL could send it: refused naming the field.
  await assert.rejects(
    exportSettlementsFor(person, { status: "lost" as "paid" }),
    (e: ApiError) => e.code === "S5" && e.errors[0]?.field === "status",
  );
  const machine: Caller = { kind: "machine", merchantId: s.merchant.merchantId, mode: "test", publicKey: s.merchant.publicKey };
  await assert.rejects(exportSettlementLinesFor(machine, {}), (e: { code?: string }) => e.code === "S3");
});
