// initiatePayment through a typed tRPC client, as a merchant's TypeScript backend would call it; tsc checks the types below.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { TransferPayments, UssdPayments } from "../../payments/initiate-answer";
import type { InitiatePaymentInput } from "../../payments/initiate-schema";
import { isValidNuban } from "../../providers/nuban";
import { createTestMerchant, startOwo, tokenFor, type Owo } from "../../testing/harness";
import { newReference, sampleOrder, TRANSFER_PAYMENT_KEYS, trpcClient, trpcFailure, USSD_PAYMENT_KEYS } from "../../testing/initiation";

let owo: Owo;
let client: ReturnType<typeof trpcClient>;
before(async () => {
  owo = await startOwo();
  client = trpcClient(owo, await tokenFor(owo, await createTestMerchant("Demo Store")));
});
after(() => owo.stop());

// The procedure answers exactly the two payments objects, not a loose record.
type Answered = Awaited<ReturnType<typeof client.initiatePayment.mutate>>;
const answersExactly: [Answered] extends [UssdPayments | TransferPayments]
  ? [UssdPayments | TransferPayments] extends [Answered]
    ? true
    : false
  : false = true;

test("a USSD payment through the typed client: the dial code object, typed", async () => {
  assert.equal(answersExactly, true);
  const input: InitiatePaymentInput = { ...sampleOrder, paymentReference: newReference(), paymentType: "USSD", bankCode: "058" };
  const payments = await client.initiatePayment.mutate(input);
  assert.ok("ussdDailCode" in payments, "a USSD answer");
  const dial: string = payments.ussdDailCode;
  assert.equal(dial, `*737*000*${payments.providerreference}#`);
  assert.deepEqual(Object.keys(payments), USSD_PAYMENT_KEYS);
  assert.equal(payments.amount, "1500.00");
  assert.equal(payments.paymentReference, input.paymentReference);
  assert.equal(payments.checkoutUrl, `${owo.url}/checkout/${payments.linkingReference}`);
  // @ts-expect-error the answer has API.md's fields only
  assert.equal(payments.bankCode, undefined);
});

test("a TRANSFER payment through the typed client: the opened account object, typed", async () => {
  const payments = await client.initiatePayment.mutate({
    ...sampleOrder,
    paymentReference: newReference(),
    paymentType: "TRANSFER",
    amount: "2500000",
  });
  assert.ok("accountNumber" in payments, "a TRANSFER answer");
  assert.deepEqual(Object.keys(payments), TRANSFER_PAYMENT_KEYS);
  assert.equal(payments.walletName, "OWO(Demo Store)");
  assert.equal(payments.bankName, "Owo Sandbox Bank");
  assert.equal(payments.wallet, payments.accountNumber);
  assert.ok(isValidNuban("000", payments.accountNumber));
  assert.equal(payments.amount, "2500000.00");
});

test("the input type is the discriminated union: a USSD input without bankCode does not compile, nor a TRANSFER one with it", async () => {
  const ussdWithoutBank = { ...sampleOrder, paymentReference: newReference(), paymentType: "USSD" } as const;
  // @ts-expect-error bankCode is required for USSD
  const noBank = await trpcFailure(client.initiatePayment.mutate(ussdWithoutBank));
  assert.equal(noBank.apiCode, "S5");
  assert.deepEqual(
    noBank.errors.map((e) => e.field),
    ["bankCode"],
  );

  const transferWithBank = { ...sampleOrder, paymentReference: newReference(), paymentType: "TRANSFER", bankCode: "044" } as const;
  // @ts-expect-error TRANSFER takes no bankCode
  const withBank = await trpcFailure(client.initiatePayment.mutate(transferWithBank));
  assert.equal(withBank.apiCode, "S5");

  const numericAmount = { ...sampleOrder, amount: 1500, paymentReference: newReference(), paymentType: "TRANSFER" } as const;
  // @ts-expect-error amounts are strings of naira
  const numeric = await trpcFailure(client.initiatePayment.mutate(numericAmount));
  assert.equal(numeric.apiCode, "S2");
  assert.equal(numeric.code, "BAD_REQUEST");
});

test("a bad or missing token is UNAUTHORIZED with apiCode S1", async () => {
  const input: InitiatePaymentInput = { ...sampleOrder, paymentReference: newReference(), paymentType: "TRANSFER" };
  for (const forged of [trpcClient(owo, "owo_test_forged"), trpcClient(owo, "")]) {
    const t = await trpcFailure(forged.initiatePayment.mutate(input));
    assert.equal(t.code, "UNAUTHORIZED");
    assert.equal(t.httpStatus, 401);
    assert.equal(t.apiCode, "S1");
    assert.deepEqual(t.errors, []);
  }
});
