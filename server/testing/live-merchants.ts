// A merchant in live mode on a provider's test double, as the live suites need one: its account connected to the
// double (in the test's own process, so no credential check is made at the double), the double's webhooks sent to
// that account's notice URL, and live keys with a token.
import { call, createTestMerchant, tokenFor, type Owo } from "./harness";
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
