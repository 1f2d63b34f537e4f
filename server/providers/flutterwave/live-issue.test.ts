// A merchant's connected Flutterwave account issues live payments through the registry, against the Flutterwave
// double in its own process: dial codes and accounts as Flutterwave answers them, and its outages as S502. The
// timeout is generous (a slow machine must not turn an answer into an outage); a hang is ../hangs.test.ts's.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiError } from "../../api-error";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../../testing/harness";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { connectAt } from "../../testing/live-merchants";
import { issueOrder } from "../../testing/provider-double";
import { ownReference } from "../own-references";
import { issueThroughProviders } from "../registry";

const SECRET_KEY = "FLWSECK_TEST-live-issue-X";
const SECRET_HASH = "live-issue-hash";
let owo: Owo;
let double: DoubleProcess;
let merchant: TestMerchant;
let providerId: string;

before(async () => {
  owo = await startOwo({ OWO_PROVIDER_TIMEOUT_MS: "15000" });
  double = await spawnDouble("flutterwave", { "secret-key": SECRET_KEY, "secret-hash": SECRET_HASH });
  merchant = await createTestMerchant("Ada Stores");
  providerId = await connectAt(merchant.merchantId, double, "flutterwave", { secretKey: SECRET_KEY, secretHash: SECRET_HASH });
});
after(async () => {
  await double.stop();
  await owo.stop();
});

let n = 0;
const ref = () => `OWO-LIVE-${process.pid}-${++n}`;

test("a live USSD payment and a live transfer are issued by the merchant's Flutterwave account", async () => {
  const ussdRef = ref();
  const atFlutterwave = ownReference("flutterwave", ussdRef);
  const ussd = await issueThroughProviders(merchant.merchantId, "live", issueOrder("USSD", 250000), () => ussdRef);
  assert.equal(ussd.provider, "flutterwave");
  assert.equal(ussd.providerAccountId, providerId);
  assert.equal(ussd.issueReference, atFlutterwave, "sent under Owo's own prefix");
  assert.equal(ussd.issued.channel, "USSD");
  assert.match(ussd.issued.channel === "USSD" ? ussd.issued.dialCode : "", /^\*566\*002\*\d+#$/);
  const seen = await (await fetch(`${double.url}/_double/transactions/${atFlutterwave}`)).json();
  assert.equal(seen.transaction.flw_ref, ussd.issued.providerReference);

  const transfer = await issueThroughProviders(merchant.merchantId, "live", issueOrder("TRANSFER", 250000), ref);
  assert.equal(transfer.issued.channel, "TRANSFER");
  assert.equal(transfer.issued.channel === "TRANSFER" && transfer.issued.accountName, "Ada Stores");
});

test("a bank Flutterwave does not serve is S8; Flutterwave down (5xx) is S502 naming it", async () => {
  await assert.rejects(
    issueThroughProviders(merchant.merchantId, "live", issueOrder("USSD", 10000, { bank: "063" }), ref),
    (e: unknown) => e instanceof ApiError && e.code === "S8",
  );
  await fetch(`${double.url}/_double/faults`, { method: "POST", body: JSON.stringify({ kind: "5xx", path: "/v3/charges" }) });
  await assert.rejects(
    issueThroughProviders(merchant.merchantId, "live", issueOrder("TRANSFER", 10000), ref),
    (e: unknown) =>
      e instanceof ApiError &&
      e.code === "S502" &&
      JSON.stringify(e).includes("provider.flutterwave") &&
      JSON.stringify(e).includes("answered 503"),
  );
});
