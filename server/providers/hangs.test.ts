// A provider that takes the request and never answers, under a short OWO_PROVIDER_TIMEOUT_MS of this file's own (the
// other provider tests keep a generous one, so a slow machine never turns an answer into an outage): a hung Paystack
// account hands the payment to the merchant's next one; a hung Flutterwave account alone is S502 naming the timeout.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiError } from "../api-error";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { spawnDouble, type DoubleProcess } from "../testing/processes";
import { connectAt } from "../testing/live-merchants";
import { issueOrder } from "../testing/provider-double";
import { issueThroughProviders } from "./registry";

const TIMEOUT_MS = 2000;
let owo: Owo;
let hung: DoubleProcess;
let answering: DoubleProcess;
let flutterwave: DoubleProcess;

before(async () => {
  owo = await startOwo({ OWO_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) });
  [hung, answering, flutterwave] = await Promise.all([
    spawnDouble("paystack", { "secret-key": "sk_live_hung_account" }),
    spawnDouble("paystack", { "secret-key": "sk_live_answering_account" }),
    spawnDouble("flutterwave", { "secret-key": "FLWSECK-hangs-X", "secret-hash": "hangs-hash" }),
  ]);
});
after(async () => {
  await Promise.all([hung.stop(), answering.stop(), flutterwave.stop()]);
  await owo.stop();
});

let n = 0;
const ref = () => `OWO${process.pid}H${++n}-1`;
const hang = (double: DoubleProcess, path: string) =>
  fetch(`${double.url}/_double/faults`, { method: "POST", body: JSON.stringify({ kind: "hang", path }) });

test("the first Paystack account hangs: after the timeout, the second account issues", async () => {
  const m = await createTestMerchant("Hang Foods");
  await connectAt(m.merchantId, hung, "paystack", { secretKey: "sk_live_hung_account" }, 1);
  const second = await connectAt(m.merchantId, answering, "paystack", { secretKey: "sk_live_answering_account" }, 2);
  await hang(hung, "/charge");
  const started = Date.now();
  const issued = await issueThroughProviders(m.merchantId, "live", issueOrder("TRANSFER"), ref);
  assert.equal(issued.providerAccountId, second);
  assert.ok(Date.now() - started >= TIMEOUT_MS - 50, "the hung account was waited for, up to the timeout");
});

test("the merchant's only (Flutterwave) account hangs: S502 naming the timeout", async () => {
  const m = await createTestMerchant("Hang Stores");
  const providerId = await connectAt(m.merchantId, flutterwave, "flutterwave", { secretKey: "FLWSECK-hangs-X", secretHash: "hangs-hash" });
  await hang(flutterwave, "/v3/charges");
  await assert.rejects(issueThroughProviders(m.merchantId, "live", issueOrder("TRANSFER"), ref), (e: unknown) => {
    assert.ok(e instanceof ApiError && e.code === "S502");
    assert.deepEqual(
      e.errors.map((f) => `${f.field} ${f.message}`),
      [`provider.flutterwave ${providerId}: timeout after ${TIMEOUT_MS / 1000} s`],
    );
    return true;
  });
});
