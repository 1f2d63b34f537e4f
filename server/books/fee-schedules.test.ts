// Agreed fee schedules (API.md "Fees"): parsed from decimal strings without a float, kept per provider account, set
// by the operator CLI (its own process) and tRPC, and used by the live fee quote (REST and tRPC) for each account that
// would serve the payment, in routing order.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { trpcClient } from "../testing/initiation";
import { runCliBeside } from "../testing/processes";
import { userClient } from "../testing/sessions";
import { parseFeeSchedule } from "./fee-schedules";
import { feeFor, SANDBOX_SCHEDULE } from "../fees";
import { connectProvider } from "../providers/accounts";
import { createLiveKeys } from "../auth/api-keys";

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
  assert.deepEqual(parseFeeSchedule({ percent: "100", cap: null }).percentBasisPoints, 10_000);
  // 1.45% of ₦1,000.10 is 1450.145 kobo: half up only from the half, by integers (a float product reads 1450.1449…).
  assert.equal(feeFor(parseFeeSchedule({ percent: "1.45" }), 100_010), 1_450);
  assert.equal(feeFor(parseFeeSchedule({ percent: "1.45" }), 100_020), 1_450);
  assert.equal(feeFor(parseFeeSchedule({ percent: "0.5" }), 101), 1); // 0.505 kobo → 1
  assert.deepEqual(fieldOf({ percent: "1.555" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "100.01" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "1.5%" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "1.5", cap: "-5" }), ["cap"]);
  assert.deepEqual(fieldOf({ percent: "1.5", flat: "1e2" }), ["flat"]);
  assert.deepEqual(fieldOf({ flat: "100" }), ["percent"]);
  assert.deepEqual(fieldOf({ percent: "1.5", waiver: "1" }), ["waiver"]);
});

test("the live quote lists, in routing order, each serving account with an agreed schedule; the CLI and tRPC set one", async () => {
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
  const bad = await runCliBeside(
    ["provider", "fees", "--provider", paystack, "--percent", "1.5", "--flat-waived-under", "2,500"],
    owo.databaseUrl,
  );
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--flat-waived-under must be naira/);
  const unknown = await runCliBeside(["provider", "fees", "--provider", "prv_nosuchaccount000000", "--percent", "1.5"], owo.databaseUrl);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /No provider account prv_nosuchaccount000000/);
  const ok = await runCliBeside(
    ["provider", "fees", "--provider", paystack, "--percent", "1.5", "--flat", "100", "--flat-waived-under", "2500", "--cap", "2000"],
    owo.databaseUrl,
  );
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /1\.50% \+ 100\.00 from 2500\.00, capped at 2000\.00/);

  assert.deepEqual(await quote("amount=10000.00&paymentType=TRANSFER"), [
    { provider: "paystack", providerId: paystack, fee: "250.00", net: "9750.00" },
    { provider: "flutterwave", providerId: flutterwave, fee: "140.00", net: "9860.00" },
  ]);
  assert.deepEqual(await quote("amount=200000.00&paymentType=TRANSFER"), [
    { provider: "paystack", providerId: paystack, fee: "2000.00", net: "198000.00" },
    { provider: "flutterwave", providerId: flutterwave, fee: "2000.00", net: "198000.00" },
  ]);
  // USSD: each provider serves the banks it has codes for (Paystack GTBank's *737#, not Access's *901#); half up to the
  // kobo (1.5% of ₦1,003.00 is 1504.5 kobo), the ₦100 waived under ₦2,500.00.
  assert.deepEqual(await quote("amount=1003.00&paymentType=USSD&bankCode=058"), [
    { provider: "paystack", providerId: paystack, fee: "15.05", net: "987.95" },
    { provider: "flutterwave", providerId: flutterwave, fee: "14.04", net: "988.96" },
  ]);
  assert.deepEqual(await quote("amount=1003.00&paymentType=USSD&bankCode=044"), [
    { provider: "flutterwave", providerId: flutterwave, fee: "14.04", net: "988.96" },
  ]);
  // A bank initiation would refuse (S8) is refused, not quoted as served by nobody.
  const unknownBank = await call(owo, "GET", "/api/v2/fees/quote?amount=10000.00&paymentType=USSD&bankCode=000", { token });
  assert.deepEqual([unknownBank.status, unknownBank.json.data.code], [400, "S8"]);
  const noBank = await call(owo, "GET", "/api/v2/fees/quote?amount=10000.00&paymentType=USSD", { token });
  assert.equal(noBank.status, 400, noBank.text);
  assert.deepEqual(
    noBank.json.data.errors.map((e: { field: string }) => e.field),
    ["bankCode"],
  );

  // tRPC: the quote's twin answers the same; the dashboard sets, shows and removes a schedule.
  const machine = trpcClient(owo, token);
  assert.deepEqual(
    (await machine.books.quote.query({ amount: "10000.00", paymentType: "TRANSFER" })).quotes,
    await quote("amount=10000.00&paymentType=TRANSFER"),
  );
  const dashboard = await userClient(owo, m.userId);
  assert.deepEqual(await dashboard.providers.setFees.mutate({ providerId: flutterwave, fees: { percent: "1.25", flat: "50" } }), {
    providerId: flutterwave,
    fees: { percent: "1.25", flat: "50.00", flatWaivedUnder: "0.00", cap: null },
  });
  const listed = await dashboard.providers.list.query();
  assert.deepEqual(
    listed.providers.map((p) => [p.providerId, p.fees?.percent ?? null]),
    [
      [paystack, "1.50"],
      [flutterwave, "1.25"],
    ],
  );
  await assert.rejects(
    dashboard.providers.setFees.mutate({ providerId: flutterwave, fees: { percent: "one" } }),
    (e: Error & { data?: { errors?: { field: string }[] } }) => {
      assert.deepEqual(
        e.data?.errors?.map((f) => f.field),
        ["percent"],
      );
      return true;
    },
  );
  await dashboard.providers.setFees.mutate({ providerId: paystack, fees: null });
  assert.deepEqual(await quote("amount=10000.00&paymentType=TRANSFER"), [
    { provider: "flutterwave", providerId: flutterwave, fee: "175.00", net: "9825.00" },
  ]);

  // Another merchant's account is not found, to the dashboard as to anyone.
  const other = await createTestMerchant("Other Fee Store");
  const stranger = await userClient(owo, other.userId);
  await assert.rejects(stranger.providers.setFees.mutate({ providerId: flutterwave, fees: { percent: "9" } }), /No such provider account/);

  // Test mode stays the sandbox bank's published schedule.
  const testQuote = await call(owo, "GET", "/api/v2/fees/quote?amount=10000.00&paymentType=TRANSFER", { token: await tokenFor(owo, m) });
  assert.deepEqual(testQuote.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }]);
});
