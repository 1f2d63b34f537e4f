// GET /api/v2/banks/merchant/{publicKey} and tRPC merchantBanks (API.md "Merchant banks"), over real HTTP.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, tokenFor, type Owo } from "../testing/harness";
import { startInitiating, trpcClient, type InitiatingMerchant } from "../testing/initiation";
import { banks } from "../providers/banks";
import { connectProvider } from "../providers/accounts";
import { createLiveKeys } from "../auth/api-keys";

let owo: Owo;
let m: InitiatingMerchant;
before(async () => {
  m = await startInitiating();
  owo = m.owo;
});
after(() => owo.stop());

test("a test key's merchant banks: every bank, USSD wherever the sandbox bank serves it, as SeerBit clients read them", async () => {
  const res = await call(owo, "GET", `/api/v2/banks/merchant/${m.merchant.publicKey}`, { token: m.token });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, "SUCCESS");
  assert.equal(res.json.data.code, "00");
  assert.equal(res.json.data.message, "Successful");
  const list = res.json.data.merchantBanks as {
    bankCode: string;
    ussdCode: string | null;
    supportsUssd: boolean;
    status: string;
    minimumAmount: string;
  }[];
  assert.equal(list.length, banks.length);
  assert.deepEqual(
    list.find((b) => b.bankCode === "058"),
    { bankCode: "058", bankName: "Guaranty Trust Bank", ussdCode: "*737#", supportsUssd: true, status: "ACTIVE", minimumAmount: "100.00" },
  );
  const withoutUssd = banks.find((b) => b.ussdCode === null);
  assert.ok(withoutUssd, "banks.json has a bank with no USSD service");
  assert.deepEqual(
    list.find((b) => b.bankCode === withoutUssd.bankCode),
    {
      bankCode: withoutUssd.bankCode,
      bankName: withoutUssd.bankName,
      ussdCode: null,
      supportsUssd: false,
      status: "ACTIVE",
      minimumAmount: "100.00",
    },
  );
  assert.ok(list.every((b) => b.status === "ACTIVE" && b.minimumAmount === "100.00"));
});

test("another merchant's public key, or no token, is 401 S1", async () => {
  const other = await createTestMerchant();
  for (const [path, token] of [
    [`/api/v2/banks/merchant/${other.publicKey}`, m.token],
    [`/api/v2/banks/merchant/${m.merchant.publicKey}`, undefined],
  ] as const) {
    const res = await call(owo, "GET", path, { token });
    assert.equal(res.status, 401, path);
    assert.equal(res.json.data.code, "S1");
  }
  assert.equal((await call(owo, "POST", `/api/v2/banks/merchant/${m.merchant.publicKey}`, { token: m.token, body: {} })).status, 405);
});

test("tRPC merchantBanks answers the same list for the caller's merchant and mode", async () => {
  const rest = await call(owo, "GET", `/api/v2/banks/merchant/${m.merchant.publicKey}`, { token: m.token });
  const viaTrpc = await trpcClient(owo, m.token).merchantBanks.query();
  assert.deepEqual(viaTrpc, rest.json.data);
});

test("with live keys, a bank supports USSD only where a connected provider serves it (Paystack: 737, 919, 822, 966)", async () => {
  const merchant = await createTestMerchant();
  // Never called: which banks a provider serves is its connector's own list, not a network question.
  await connectProvider(merchant.merchantId, {
    provider: "paystack",
    credentials: { secretKey: "sk_test_unused" },
    baseUrl: "http://127.0.0.1:9",
  });
  const live = await createLiveKeys(merchant.merchantId);
  const token = await tokenFor(owo, { publicKey: live.publicKey, secretKey: live.secretKey });
  const res = await call(owo, "GET", `/api/v2/banks/merchant/${live.publicKey}`, { token });
  assert.equal(res.status, 200, res.text);
  const served = (res.json.data.merchantBanks as { bankCode: string; supportsUssd: boolean; ussdCode: string | null }[]).filter(
    (b) => b.supportsUssd,
  );
  assert.deepEqual(served.map((b) => b.bankCode).sort(), ["033", "057", "058", "232"]);
  const access = res.json.data.merchantBanks.find((b: { bankCode: string }) => b.bankCode === "044");
  assert.deepEqual([access.supportsUssd, access.ussdCode, access.status], [false, null, "ACTIVE"]);
});
