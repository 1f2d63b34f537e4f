// A merchant in live mode on a provider's test double, as the live suites need one: its account connected to the
// double (in the test's own process, so no credential check is made at the double), the double's webhooks sent to
// that account's notice URL, and live keys with a token.
import { call, createTestMerchant, tokenFor, type Owo } from "./harness";
import { transferBody } from "./initiation";
import type { DoubleProcess } from "./processes";

export type LiveMerchant = {
  merchantId: string;
  userId: string;
  publicKey: string;
  webhookSecret: string;
  token: string;
  providerId: string;
  noticeUrl: string;
};

export async function connectLiveMerchant(
  owo: Owo,
  double: DoubleProcess,
  name: string,
  provider: "paystack" | "flutterwave" | "seerbit",
  credentials: Record<string, string>,
): Promise<LiveMerchant> {
  const { connectProvider } = await import("../providers/accounts");
  const { createLiveKeys } = await import("../auth/api-keys");
  const merchant = await createTestMerchant(name);
  const { providerId, noticeUrl } = await connectProvider(merchant.merchantId, { provider, credentials, baseUrl: double.url });
  const pointed = await call({ url: double.url }, "PUT", "/_double/webhook-url", { body: { url: noticeUrl } });
  if (pointed.status >= 300) throw new Error(`the ${provider} double refused its webhook URL: ${pointed.text}`);
  const keys = await createLiveKeys(merchant.merchantId);
  return {
    merchantId: merchant.merchantId,
    userId: merchant.userId,
    publicKey: keys.publicKey,
    webhookSecret: keys.webhookSecret,
    token: await tokenFor(owo, keys),
    providerId,
    noticeUrl,
  };
}

/**
 * A live TRANSFER of `amount` under `paymentReference` (initiation.ts's sample order and customer), answered 200: the
 * payment's linkingReference, from which each provider's own reference follows.
 */
export async function initiateLiveTransfer(owo: Owo, m: LiveMerchant, amount: string, paymentReference: string): Promise<string> {
  const res = await call(owo, "POST", "/api/v2/payments/initiates", {
    token: m.token,
    body: transferBody(m.publicKey, { amount, paymentReference }),
  });
  if (res.status !== 200) throw new Error(`initiating ${paymentReference} answered ${res.status}: ${res.text}`);
  return res.json.data.payments.linkingReference as string;
}
