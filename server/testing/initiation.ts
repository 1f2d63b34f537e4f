// Initiation requests for HTTP tests: valid bodies per channel, the published samples, and a typed tRPC client.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../trpc/root";
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo, type TestMerchant } from "./harness";

export type Body = Record<string, unknown>;

export function trpcClient(owo: Owo, token: string) {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${owo.url}/api/trpc`, transformer: superjson, headers: { authorization: `Bearer ${token}` } })],
  });
}

export type InitiatingMerchant = { owo: Owo; merchant: TestMerchant; token: string; trpc: ReturnType<typeof trpcClient> };

/** A running Owo with one merchant, its access token and a tRPC client on that token; the caller stops `owo`. */
export async function startInitiating(env: Record<string, string> = {}): Promise<InitiatingMerchant> {
  const owo = await startOwo(env);
  const merchant = await createTestMerchant();
  const token = await tokenFor(owo, merchant);
  return { owo, merchant, token, trpc: trpcClient(owo, token) };
}

/** `body` initiated over REST with `token` and answered 200 (else the test fails, showing the answer): its `payments`. */
export async function initiated(owo: Pick<Owo, "url">, token: string, body: Body): Promise<Answer["json"]> {
  const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
  assert.equal(res.status, 200, `initiating ${String(body.paymentReference)}: ${res.text}`);
  return res.json.data.payments;
}

/** A payment initiated with `body` and then paid at the sandbox bank (or as `simulate` says): its reference. */
export async function paidInSandbox(s: InitiatingMerchant, body: Body, simulate: Body = { outcome: "pay" }): Promise<string> {
  await initiated(s.owo, s.token, body);
  const ref = String(body.paymentReference);
  const simulated = await call(s.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: s.token, body: simulate });
  if (simulated.status !== 200) throw new Error(`the sandbox bank answered ${simulated.status}: ${simulated.text}`);
  return ref;
}

/** The tRPC failure's `data` (code, httpStatus, apiCode, errors); fails the test if the call succeeded. */
export async function trpcFailure(
  pending: Promise<unknown>,
): Promise<{ code: string; httpStatus: number; apiCode: string; errors: { field: string; message: string }[]; message: string }> {
  try {
    await pending;
  } catch (e) {
    if (!(e instanceof TRPCClientError)) throw e;
    const data = (e as TRPCClientError<AppRouter>).data;
    if (!data) throw e;
    return { ...data, message: e.message };
  }
  throw new Error("the tRPC call succeeded where a failure was expected");
}

let references = 0;
/** Unique within the test process: every test sends a new paymentReference unless it means to reuse one. */
export function newReference(prefix = "ord"): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++references}`;
}

/**
 * A valid initiation's order and customer: everything but the key, the reference and the channel. The tests' own
 * customer, not the published samples' (Ada Obi): a test that means the customer reads her from here.
 */
export const sampleOrder = {
  amount: "1500",
  fullName: "Chinedu Okafor",
  mobileNumber: "07061234567",
  email: "chinedu@example.com",
  currency: "NGN",
  country: "NG",
  callbackUrl: "https://shop.example.ng/owo/callback",
  redirectUrl: "https://shop.example.ng/thanks",
} as const;

/** sampleOrder's customer as a payment's `customers` shows it (verify, the dashboard's payment). */
export const sampleCustomers = {
  customerName: sampleOrder.fullName,
  customerMobile: sampleOrder.mobileNumber,
  customerEmail: sampleOrder.email,
};

/** API.md's USSD `payments` object: its keys, in its order (the answer's bytes keep it), as both doors answer it. */
export const USSD_PAYMENT_KEYS = [
  "paymentReference",
  "linkingReference",
  "providerreference",
  "ussdDailCode",
  "amount",
  "expiresAt",
  "checkoutUrl",
];

/** API.md's TRANSFER `payments` object: its keys, in its order. */
export const TRANSFER_PAYMENT_KEYS = [
  "paymentReference",
  "walletName",
  "wallet",
  "bankName",
  "accountNumber",
  "linkingReference",
  "amount",
  "expiresAt",
  "checkoutUrl",
];

export function ussdBody(publicKey: string, patch: Body = {}): Body {
  return { publicKey, ...sampleOrder, paymentReference: newReference(), paymentType: "USSD", bankCode: "044", ...patch };
}

export function transferBody(publicKey: string, patch: Body = {}): Body {
  return { publicKey, ...sampleOrder, paymentReference: newReference(), paymentType: "TRANSFER", ...patch };
}

/** The REST body as tRPC takes it: without publicKey, and with `undefined` meaning "leave the key out". */
export function trpcInput(body: Body): Body {
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => k !== "publicKey" && v !== undefined));
}

/** A published sample of docs/examples (unchanged but for its placeholders) as raw JSON text. */
export function exampleText(
  name: "initiate-ussd" | "initiate-transfer",
  fill: { publicKey: string; callbackUrl: string; redirectUrl: string },
): string {
  const text = readFileSync(new URL(`../../docs/examples/${name}.json`, import.meta.url), "utf8");
  return text
    .replace("<PUBLIC_KEY>", fill.publicKey)
    .replace("<CALLBACK_URL>", fill.callbackUrl)
    .replace("<REDIRECT_URL>", fill.redirectUrl);
}
