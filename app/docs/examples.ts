// Every code sample of the docs, in one place: the pages render them and tests run them
// (server/openapi/docs-examples.test.ts runs each curl with curl, client/types.test.ts type-checks the TypeScript).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as answers from "@/server/openapi/examples";

export type CurlStep = {
  id: string;
  title: string;
  /** One or two sentences: why this step, what to look at in the answer. */
  note: string;
  command: string;
  /** What Owo answers (API.md's sample); the test holds real answers to the same shape. */
  answer: unknown;
};

const bearer = '  -H "Authorization: Bearer $TOKEN" \\';
const jsonType = '  -H "Content-Type: application/json" \\';

/** A JSON body through a here-document, so $PUBLIC_KEY is filled in by the shell and nothing needs escaping. */
function bodyFromHeredoc(body: unknown): string {
  return `  -d @- <<JSON\n${JSON.stringify(body, null, 2)}\nJSON`;
}

export const setupCommand = [
  "export OWO_URL=http://localhost:3000   # your Owo",
  "export PUBLIC_KEY=pk_test_…            # Developers page of the dashboard",
  "export SECRET_KEY=sk_test_…            # shown once when the key is made or rolled",
].join("\n");

export const tokenExport = "export TOKEN=owo_test_…   # data.EncryptedSecKey.encryptedKey from the answer";

export const quickStart: CurlStep[] = [
  {
    id: "token",
    title: "Exchange your keys for a token",
    note: "The key is your secret key and your public key joined by a dot, secret first. The token lives 24 hours; ask for a new one before expiresAt.",
    command: ['curl -sS -X POST "$OWO_URL/api/v2/encrypt/keys" \\', jsonType, '  -d "{\\"key\\": \\"$SECRET_KEY.$PUBLIC_KEY\\"}"'].join("\n"),
    answer: answers.tokenAnswerExample,
  },
  {
    id: "banks",
    title: "Find the customer's bank",
    note: "USSD needs the customer's bank: its bankCode, among the banks with supportsUssd. No token needed.",
    command: 'curl -sS "$OWO_URL/api/v2/banks"',
    answer: answers.banksAnswerExample,
  },
  {
    id: "initiate-ussd",
    title: "Initiate a USSD payment",
    note: "Show the customer ussdDailCode: they dial it on the phone registered with their bank (044 is Access Bank, *901#). Sending the same request again answers the same code.",
    command: ['curl -sS -X POST "$OWO_URL/api/v2/payments/initiates" \\', bearer, jsonType, bodyFromHeredoc(answers.ussdRequestExample("$PUBLIC_KEY"))].join("\n"),
    answer: answers.ussdAnswerExample,
  },
  {
    id: "initiate-transfer",
    title: "Initiate a TRANSFER payment",
    note: "Owo opens an account for this payment alone; the customer transfers the amount into it from any bank app before expiresAt. No bankCode for TRANSFER.",
    command: ['curl -sS -X POST "$OWO_URL/api/v2/payments/initiates" \\', bearer, jsonType, bodyFromHeredoc(answers.transferRequestExample("$PUBLIC_KEY"))].join("\n"),
    answer: answers.transferAnswerExample,
  },
  {
    id: "simulate-ussd",
    title: "Test mode: let the sandbox bank pay the USSD payment",
    note: 'The sandbox bank sends Owo a signed notice, exactly as a real bank would. {"outcome":"decline"} makes the debit fail instead.',
    command: ['curl -sS -X POST "$OWO_URL/api/v2/sandbox/payments/ord-1001/simulate" \\', bearer, jsonType, "  -d '{\"outcome\": \"pay\"}'"].join("\n"),
    answer: answers.simulateUssdAnswerExample,
  },
  {
    id: "simulate-transfer",
    title: "Test mode: transfer into the account",
    note: 'Without an amount the sandbox transfers what is still owed; {"outcome":"pay","amount":"700.00"} under- or over-pays.',
    command: ['curl -sS -X POST "$OWO_URL/api/v2/sandbox/payments/ord-1002/simulate" \\', bearer, jsonType, "  -d '{\"outcome\": \"pay\"}'"].join("\n"),
    answer: answers.simulateAnswerExample,
  },
  {
    id: "verify",
    title: "Verify before you deliver",
    note: "Deliver only when data.code is 00. S20 is pending or partly paid, S12 failed, S0 expired. The same answer is under /api/v2/.",
    command: ['curl -sS "$OWO_URL/api/v3/payments/query/ord-1002" \\', '  -H "Authorization: Bearer $TOKEN"'].join("\n"),
    answer: answers.verifyAnswerExample,
  },
];

/** "Coming from SeerBit": the calls SeerBit's clients make, against Owo's base URL, as curl shows them. */
export const seerbitSteps: CurlStep[] = [
  quickStart[0] as CurlStep,
  {
    id: "standard-checkout",
    title: "Standard checkout, as SeerBit's SDK sends it",
    note: "Numbers for amount and paymentReference, null product fields and the hash are all accepted. Send the customer to redirectLink: they choose USSD (and their bank) or a bank transfer there.",
    command: ['curl -sS -X POST "$OWO_URL/api/v2/payments" \\', bearer, jsonType, bodyFromHeredoc(answers.standardCheckoutRequestExample("$PUBLIC_KEY"))].join("\n"),
    answer: answers.standardCheckoutAnswerExample,
  },
  {
    id: "merchant-banks",
    title: "Merchant banks",
    note: "The banks your customers can pay from in your key's mode. The publicKey in the path must be your token's.",
    command: ['curl -sS "$OWO_URL/api/v2/banks/merchant/$PUBLIC_KEY" \\', '  -H "Authorization: Bearer $TOKEN"'].join("\n"),
    answer: answers.merchantBanksAnswerExample,
  },
  {
    id: "verify-standard",
    title: "Verify, as SeerBit's SDK does",
    note: "Its GET carries a JSON body with no length; Owo answers as if it had none. paymentType is null until the customer chooses.",
    command: ['curl -sS "$OWO_URL/api/v3/payments/query/1763805600000" \\', '  -H "Authorization: Bearer $TOKEN"'].join("\n"),
    answer: answers.standardCheckoutVerifyExample,
  },
];

/**
 * The typed client in a TypeScript backend: channels narrowed by their fields, every failure an OwoError. Its customer
 * is client/merchant-backend.example.mjs's, written out again on purpose: a published sample stands whole.
 */
export const clientTypescriptExample = `import { createOwoClient, OwoError } from "owo/client";

const owo = createOwoClient({
  baseUrl: "http://localhost:3000",
  publicKey: process.env.OWO_PUBLIC_KEY ?? "",
  secretKey: process.env.OWO_SECRET_KEY ?? "",
});

export async function checkout(orderId: string, bankCode: string) {
  try {
    const answer = await owo.initiatePayment.mutate({
      paymentType: "USSD", // with "TRANSFER", bankCode must go: the compiler says so
      bankCode,
      amount: "1500",
      paymentReference: orderId,
      fullName: "Ada Obi",
      mobileNumber: "08012345678",
      email: "ada@example.com",
      currency: "NGN",
      country: "NG",
      callbackUrl: "https://shop.example.ng/owo/callback",
      redirectUrl: "https://shop.example.ng/thanks",
    });
    if ("ussdDailCode" in answer) return { dial: answer.ussdDailCode, until: answer.expiresAt };
    return { account: answer.accountNumber, bank: answer.bankName, until: answer.expiresAt };
  } catch (err) {
    if (err instanceof OwoError && err.httpStatus === 400) {
      return { problems: err.errors.map((e) => \`\${e.field} \${e.message}\`) };
    }
    throw err;
  }
}

export async function isPaid(orderId: string): Promise<boolean> {
  const { code } = await owo.verifyPayment.query({ paymentReference: orderId });
  return code === "00";
}

export async function partlyPaid() {
  const page = await owo.payments.list.query({ status: "PARTIALLY_PAID", limit: 20 });
  return page.items.map((p) => \`\${p.paymentReference}: \${p.amountPaid} of \${p.amount}\`);
}

export async function history(orderId: string) {
  const { timeline } = await owo.payments.byReference.query({ paymentReference: orderId });
  return timeline;
}
`;

/** A runnable example file beside the client (tested by running it); read when the page renders. */
export function exampleFile(name: "merchant-backend.example.mjs" | "callback-receiver.example.mjs" | "seerbit-nodejs.example.mjs"): string {
  return readFileSync(join(process.cwd(), "client", name), "utf8");
}
