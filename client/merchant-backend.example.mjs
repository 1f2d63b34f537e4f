// A merchant's backend using the typed client, end to end in test mode. The docs show this
// very file and client/client.test.ts runs it against a real Owo: what you read is what works.
//   export OWO_URL=http://localhost:3000 PUBLIC_KEY=pk_test_… SECRET_KEY=sk_test_…
//   node merchant-backend.example.mjs
import { createOwoClient, OwoError } from "owo/client";

const owo = createOwoClient({
  baseUrl: process.env.OWO_URL,
  publicKey: process.env.PUBLIC_KEY,
  secretKey: process.env.SECRET_KEY,
});

const order = `ord-${Date.now().toString(36)}`;
const customer = {
  fullName: "Ada Obi",
  mobileNumber: "08012345678",
  email: "ada@example.com",
  currency: "NGN",
  country: "NG",
  callbackUrl: "https://shop.example.ng/owo/callback",
  redirectUrl: "https://shop.example.ng/thanks",
};

// USSD: the customer dials the code on the phone registered with their bank (058: GTBank).
const ussd = await owo.initiatePayment.mutate({
  ...customer,
  amount: "1500",
  paymentType: "USSD",
  bankCode: "058",
  paymentReference: `${order}-ussd`,
});
console.log(`USSD ${ussd.paymentReference}: dial ${ussd.ussdDailCode} before ${ussd.expiresAt}`);

// TRANSFER: Owo opens an account for this payment; the customer pays into it from any bank app.
const transfer = await owo.initiatePayment.mutate({
  ...customer,
  amount: "2500.50",
  paymentType: "TRANSFER",
  paymentReference: `${order}-transfer`,
});
const { paymentReference, amount, accountNumber, bankName } = transfer;
console.log(`TRANSFER ${paymentReference}: pay ${amount} into ${accountNumber} at ${bankName}`);

// Test keys only: the sandbox bank plays the customer.
// The USSD debit succeeds; the transfer falls short.
await owo.sandbox.simulate.mutate({ paymentReference: ussd.paymentReference, outcome: "pay" });
await owo.sandbox.simulate.mutate({
  paymentReference: transfer.paymentReference,
  outcome: "pay",
  amount: "1000.00",
});

// Deliver the goods only when verify says code "00"; any other code is unpaid.
for (const reference of [ussd.paymentReference, transfer.paymentReference]) {
  const { code, payments } = await owo.verifyPayment.query({ paymentReference: reference });
  const paid = `paid ${payments.amountPaid} of ${payments.amount}`;
  console.log(`verify ${reference}: ${payments.status} (code ${code}), ${paid}`);
}

// Every failure is an OwoError carrying API.md's code, the HTTP status and the fields at fault.
try {
  await owo.verifyPayment.query({ paymentReference: "no-such-order" });
} catch (err) {
  if (!(err instanceof OwoError)) throw err;
  console.log(`refused: ${err.code} (HTTP ${err.httpStatus}) ${err.message}`);
}
