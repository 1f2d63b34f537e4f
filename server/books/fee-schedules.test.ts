// Agreed fee schedules (API.md "Fees"): parsed from decimal strings without a float, kept per provider account, set
// by the operator CLI, and used by the live fee quote for each account that would serve the payment, in routing order.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { runCliBeside } from "../testing/processes";
import { parseFeeSchedule } from "./fee-schedules";
import { SANDBOX_SCHEDULE } from "./fees";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

const fieldOf = (input: unknown) => {
  try {
    parseFeeSchedule(input);
    return null;
  } catch (e) {
    return (e as { errors: { field: string }[] }).errors.map((f) => f.field);
  }
};

test("a schedule reads like money: the sandbox's own in words, bad parts refused naming the field", () => {
  assert.deepEqual(parseFeeSchedule({ percent: "1.5", flat: "100", flatWaivedUnder: "2500", cap: "2000" }), SANDBOX_SCHEDULE);
  assert.deepEqual(parseFeeSchedule({ percent: "0.75" }), { percentBasisPoints: 75, flatKobo: 0, flatWaivedUnderKobo: 0, capKobo: null });
  assert.deepEqual(fieldOf({ percent: "1.555" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "100.01" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "1.5", cap: "-5" }), ["cap"]);
  assert.deepEqual(fieldOf({ flat: "100" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "1.5", waiver: "1" }), ["waiver"]);
});

test("the live quote lists, in routing order, each serving account with an agreed schedule; the CLI sets one", async () => {
  const { connectProvider } = await import("../providers/accounts");
  const { createLiveKeys } = await import("../auth/api-keys");
  const m = await createTestMerchant("Fee Store");
  // The quote never calls a provider: these accounts are never reached.
  const connect = (provider: "paystack" | "flutterwave", priority: number) =>
    connectProvider(m.merchantId, {
      provider,
      credentials: provider === "paystack" ? { secretKey: "sk_test_fees" } : { secretKey: "FLWSECK_TEST-fees-X", secretHash: "fees-hash" },
      priority,
      baseUrl: "http://127.0.0.1:9",
    });
  const paystack = (await connect("paystack", 1)).providerId;
  const flutterwave = (await connect("flutterwave", 2)).providerId;
  const token = await tokenFor(owo, await createLiveKeys(m.merchantId));
  const quote = async (query: string) => {
    const res = await call(owo, "GET", `/api/v2/fees/quote?${query}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.json.data.quotes;
  };
  assert.deepEqual(await quote("amount=10000.00&paymentType=TRANSFER"), [], "no account has agreed a schedule yet");

  const set = await runCliBeside(
    ["provider", "fees", "--provider", flutterwave, "--percent", "1.4", "--cap", "2000", "--json"],
    owo.databaseUrl,
  );
  assert.equal(set.status, 0, set.stderr);
  assert.deepEqual(JSON.parse(set.stdout), {
    providerId: flutterwave,
    provider: "flutterwave",
    fees: { percent: "1.40", flat: "0.00", flatWaivedUnder: "0.00", cap: "2000.00" },
  });
  const bad = await runCliBeside(["provider", "fees", "--provider", paystack, "--percent", "1.5%"], owo.databaseUrl);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr + bad.stdout, /percent/);
  const ok = await runCliBeside(
    ["provider", "fees", "--provider", paystack, "--percent", "1.5", "--flat", "100", "--flat-waived-under", "2500", "--cap", "2000"],
    owo.databaseUrl,
  );
  assert.equal(ok.status, 0, ok.stderr);

  assert.deepEqual(await quote("amount=10000.00&paymentType=TRANSFER"), [
    { provider: "paystack", providerId: paystack, fee: "250.00", net: "9750.00" },
    { provider: "flutterwave", providerId: flutterwave, fee: "140.00", net: "9860.00" },
  ]);
  assert.deepEqual(await quote("amount=200000.00&paymentType=TRANSFER"), [
    { provider: "paystack", providerId: paystack, fee: "2000.00", net: "198000.00" },
    { provider: "flutterwave", providerId: flutterwave, fee: "2000.00", net: "198000.00" },
  ]);
  // Bank 000 is the sandbox's own: no live provider serves USSD there.
  assert.deepEqual(await quote("amount=10000.00&paymentType=USSD&bankCode=000"), []);

  // Test mode stays the sandbox bank's published schedule.
  const testQuote = await call(owo, "GET", "/api/v2/fees/quote?amount=10000.00&paymentType=TRANSFER", { token: await tokenFor(owo, m) });
  assert.deepEqual(testQuote.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }]);
});
