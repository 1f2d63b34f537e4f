// The fee quote (API.md "Fees") reads its fields by initiation's rules and refuses them in initiation's codes (the
// error table: S2 for the amount alone, S8 for the bank alone, S5 otherwise), over REST and tRPC alike: a quote is for
// a payment Owo would initiate, so one it would refuse is never priced. Unknown query fields are ignored.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { trpcClient, trpcFailure } from "../testing/initiation";

let owo: Owo;
let token: string;
before(async () => {
  owo = await startOwo();
  token = await tokenFor(owo, await createTestMerchant("Quote Store"));
});
after(() => owo.stop());

type Refusal = { status: number; code: string; fields: string[] };

async function refusedOverRest(query: string): Promise<Refusal> {
  const res = await call(owo, "GET", `/api/v2/fees/quote?${query}`, { token });
  return { status: res.status, code: res.json.data.code, fields: res.json.data.errors?.map((e: { field: string }) => e.field) ?? [] };
}

async function refusedOverTrpc(input: Record<string, string>): Promise<Refusal> {
  const trpc = trpcClient(owo, token);
  // Sent as a client with no types would send it: the point is what the server answers.
  const failure = await trpcFailure(trpc.books.quote.query(input as never));
  return { status: failure.httpStatus, code: failure.apiCode, fields: failure.errors.map((e) => e.field) };
}

const CASES: [string, Record<string, string>, Refusal][] = [
  ["a malformed amount alone", { amount: "1003.005", paymentType: "TRANSFER" }, { status: 400, code: "S2", fields: ["amount"] }],
  ["a negative amount", { amount: "-100", paymentType: "TRANSFER" }, { status: 400, code: "S2", fields: ["amount"] }],
  ["an amount of zero", { amount: "0", paymentType: "TRANSFER" }, { status: 400, code: "S2", fields: ["amount"] }],
  ["an amount under the minimum", { amount: "0.01", paymentType: "TRANSFER" }, { status: 400, code: "S2", fields: ["amount"] }],
  [
    "USSD over its 1,000,000.00",
    { amount: "2000000.00", paymentType: "USSD", bankCode: "058" },
    { status: 400, code: "S2", fields: ["amount"] },
  ],
  ["an unknown bank", { amount: "10000.00", paymentType: "USSD", bankCode: "999" }, { status: 400, code: "S8", fields: ["bankCode"] }],
  ["a bank with no USSD", { amount: "10000.00", paymentType: "USSD", bankCode: "000" }, { status: 400, code: "S8", fields: ["bankCode"] }],
  ["USSD without a bank", { amount: "10000.00", paymentType: "USSD" }, { status: 400, code: "S5", fields: ["bankCode"] }],
  [
    "a bank with TRANSFER",
    { amount: "10000.00", paymentType: "TRANSFER", bankCode: "058" },
    { status: 400, code: "S5", fields: ["bankCode"] },
  ],
  [
    "an unknown channel and a bad amount",
    { amount: "10.001", paymentType: "CARD" },
    { status: 400, code: "S5", fields: ["paymentType", "amount"] },
  ],
  ["no amount", { paymentType: "TRANSFER" }, { status: 400, code: "S5", fields: ["amount"] }],
];

for (const [what, input, expected] of CASES) {
  test(`${what} is refused as initiation refuses it: ${expected.code} naming ${expected.fields.join(", ")}, over REST and tRPC`, async () => {
    const rest = await refusedOverRest(new URLSearchParams(input).toString());
    assert.deepEqual({ ...rest, fields: rest.fields.sort() }, { ...expected, fields: [...expected.fields].sort() });
    const trpc = await refusedOverTrpc(input);
    assert.deepEqual({ ...trpc, fields: trpc.fields.sort() }, { ...expected, fields: [...expected.fields].sort() });
  });
}

test("a quote Owo would initiate is priced, and fields API.md does not name are ignored", async () => {
  for (const query of ["amount=10000.00&paymentType=USSD&bankCode=058", "amount=10000&paymentType=USSD&bankCode=058&currency=NGN&_=1"]) {
    const res = await call(owo, "GET", `/api/v2/fees/quote?${query}`, { token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }]);
  }
  const smallest = await call(owo, "GET", "/api/v2/fees/quote?amount=100.00&paymentType=TRANSFER", { token });
  assert.deepEqual(smallest.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "1.50", net: "98.50" }]);
});

test("over tRPC an amount sent as null is missing, as initiation has it: S5, not S2", async () => {
  const refused = await refusedOverTrpc({ amount: null, paymentType: "TRANSFER" } as never);
  assert.deepEqual(refused, { status: 400, code: "S5", fields: ["amount"] });
});
