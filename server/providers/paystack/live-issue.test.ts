// A merchant's connected Paystack accounts issue live payments through the registry, against two Paystack doubles in
// their own processes: Paystack's dial codes and accounts, S8 for a bank Paystack has no USSD type for, failover to
// the next account when the first is down (5xx, refused connection), and S502 naming both when both are. A hang is
// ../hangs.test.ts's, under its own short timeout: here the timeout is generous, so a slow machine never makes the
// first account lose to the second.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiError } from "../../api-error";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../../testing/harness";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { connectAt } from "../../testing/live-merchants";
import { issueOrder } from "../../testing/provider-double";
import { ownReference } from "../own-references";
import { issueThroughProviders } from "../registry";

let owo: Owo;
let first: DoubleProcess;
let second: DoubleProcess;
let merchant: TestMerchant;
let firstId: string;
let secondId: string;

before(async () => {
  owo = await startOwo({ OWO_PROVIDER_TIMEOUT_MS: "15000", OWO_PROVIDER_REST_SECONDS: "1" });
  [first, second] = await Promise.all([
    spawnDouble("paystack", { "secret-key": "sk_test_first_account" }),
    spawnDouble("paystack", { "secret-key": "sk_live_second_account" }),
  ]);
  merchant = await createTestMerchant("Kola Foods");
  firstId = await connectAt(merchant.merchantId, first, "paystack", { secretKey: "sk_test_first_account" }, 1);
  secondId = await connectAt(merchant.merchantId, second, "paystack", { secretKey: "sk_live_second_account" }, 2);
});
after(async () => {
  await Promise.all([first.stop(), second.stop()]);
  await owo.stop();
});

let n = 0;
const ref = () => `OWO${process.pid}X${++n}-1`;
const arm = (double: DoubleProcess, fault: Record<string, unknown>) =>
  fetch(`${double.url}/_double/faults`, { method: "POST", body: JSON.stringify(fault) });

test("live USSD (Zenith, type 966) and a live transfer are issued by the first Paystack account, with Paystack's reference", async () => {
  const body = ref();
  const reference = ownReference("paystack", body);
  const ussd = await issueThroughProviders(merchant.merchantId, "live", issueOrder("USSD", 250000, { bank: "057" }), () => body);
  assert.deepEqual([ussd.provider, ussd.providerAccountId, ussd.issueReference], ["paystack", firstId, reference]);
  assert.match(ussd.issued.channel === "USSD" ? ussd.issued.dialCode : "", /^\*966\*33\*4\*\d{6}#$/);
  assert.equal(ussd.issued.providerReference, reference);
  const seen = (await (await fetch(`${first.url}/_double/transactions/${reference}`)).json()) as {
    transaction: { amount: number; channel: string };
  };
  assert.deepEqual([seen.transaction.amount, seen.transaction.channel], [250000, "ussd"]);

  const transfer = await issueThroughProviders(merchant.merchantId, "live", issueOrder("TRANSFER", 250000), ref);
  assert.ok(transfer.issued.channel === "TRANSFER");
  assert.equal(transfer.issued.bankName, "Test Bank");
  assert.ok(transfer.issued.expiresAt && transfer.issued.expiresAt <= Date.now() + 1_800_000);
});

test("a bank none of the merchant's Paystack accounts has a USSD type for is S8", async () => {
  await assert.rejects(
    issueThroughProviders(merchant.merchantId, "live", issueOrder("USSD", 250000, { bank: "044" }), ref),
    (e: unknown) => e instanceof ApiError && e.code === "S8",
  );
});

test("the first account down — 5xx, a refused connection — the second issues; both down is S502 naming both", async () => {
  await arm(first, { kind: "5xx", path: "/charge" });
  assert.equal((await issueThroughProviders(merchant.merchantId, "live", issueOrder("TRANSFER", 250000), ref)).providerAccountId, secondId);
  await first.stop();
  const issued = await issueThroughProviders(merchant.merchantId, "live", issueOrder("USSD", 250000, { bank: "058" }), ref);
  assert.equal(issued.providerAccountId, secondId);
  await arm(second, { kind: "5xx", path: "/charge" });
  await assert.rejects(issueThroughProviders(merchant.merchantId, "live", issueOrder("TRANSFER", 250000), ref), (e: unknown) => {
    assert.ok(e instanceof ApiError && e.code === "S502");
    const fields = e.errors.map((f) => `${f.field} ${f.message}`).join("\n");
    assert.match(fields, new RegExp(`provider.paystack ${firstId}: .*ECONNREFUSED`));
    assert.match(fields, new RegExp(`provider.paystack ${secondId}: .*answered 500`));
    return true;
  });
});
