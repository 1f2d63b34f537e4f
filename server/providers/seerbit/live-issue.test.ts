// A merchant's SeerBit account issues live payments through the registry, and the SeerBit is a second Owo process
// (test keys, sandbox bank): the chain answers with the second Owo's dial code and account.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ApiError } from "../../api-error";
import { createTestMerchant, startOwo, tempDataDir, type Owo, type TestMerchant } from "../../testing/harness";
import { runCli, databaseIn, spawnOwo, type OwoProcess } from "../../testing/processes";
import { connectProvider } from "../accounts";
import { bankByCode, type Bank } from "../banks";
import type { IssueRequest } from "../connector";
import { issueThroughProviders } from "../registry";

let owoA: Owo;
let owoB: OwoProcess;
let merchant: TestMerchant;
let providerId: string;

before(async () => {
  const dataDir = tempDataDir();
  const made = runCli(
    [
      "merchant",
      "create",
      "--name",
      "Second Owo Bank",
      "--email",
      `second${process.pid}@example.com`,
      "--password",
      "a long enough chain password 42",
      "--json",
    ],
    dataDir,
  );
  assert.equal(made.status, 0, made.stderr);
  const keys = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { publicKey: string; secretKey: string };
  [owoA, owoB] = await Promise.all([startOwo({ OWO_PROVIDER_TIMEOUT_MS: "15000" }), spawnOwo(databaseIn(dataDir))]);
  merchant = await createTestMerchant("First Owo Shop");
  providerId = (await connectProvider(merchant.merchantId, { provider: "seerbit", credentials: keys, baseUrl: owoB.url })).providerId;
});
after(async () => {
  if (owoB.child.exitCode === null) owoB.child.kill("SIGKILL");
  await owoB.exited;
  await owoA.stop();
});

const customer = { fullName: "Ngozi Okafor", email: "ngozi@example.com", mobileNumber: "08031234567" };
let n = 0;
const ref = () => `OWO${process.pid}S${++n}-1`;
const payment = (channel: "USSD" | "TRANSFER", bank?: string): Omit<IssueRequest, "reference"> => ({
  channel,
  amountKobo: 120050,
  currency: "NGN",
  ...(bank ? { bank: bankByCode(bank) as Bank } : {}),
  customer,
  merchantName: "First Owo Shop",
  expiresAt: Date.now() + 1_800_000,
});

test("live USSD and TRANSFER are issued by the chained Owo as SeerBit, with its linkingReference as providerReference", async () => {
  const ussd = await issueThroughProviders(merchant.merchantId, "live", payment("USSD", "011"), ref);
  assert.deepEqual([ussd.provider, ussd.providerAccountId], ["seerbit", providerId]);
  assert.match(ussd.issued.channel === "USSD" ? ussd.issued.dialCode : "", /^\*894\*000\*\d{8}#$/);
  assert.match(ussd.issued.providerReference, /^OWO\d+$/);
  const transfer = await issueThroughProviders(merchant.merchantId, "live", payment("TRANSFER"), ref);
  assert.ok(transfer.issued.channel === "TRANSFER");
  assert.deepEqual([transfer.issued.bankName, transfer.issued.accountName], ["Owo Sandbox Bank", "OWO(Second Owo Bank)"]);
});

test("the chained SeerBit gone is S502 naming it", async () => {
  owoB.child.kill("SIGKILL");
  await owoB.exited;
  await assert.rejects(issueThroughProviders(merchant.merchantId, "live", payment("TRANSFER"), ref), (e: unknown) => {
    assert.ok(e instanceof ApiError && e.code === "S502");
    assert.match(e.errors.map((f) => `${f.field} ${f.message}`).join("\n"), new RegExp(`provider.seerbit ${providerId}: .*ECONNREFUSED`));
    return true;
  });
});
