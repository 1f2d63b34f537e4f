// The registry: which connector issues a payment. Test mode is the sandbox bank's; live mode takes the merchant's
// connected providers in priority order, skips those that do not serve the channel or bank or are resting, and
// fails over on a timeout, a 5xx or an unreachable host. Never called inside a database transaction, but for the
// sandbox bank's in-process issue (issueInProcess).
import type { Mode } from "../../db/schema";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { settings } from "../settings";
import {
  connectProvider,
  connectedAccounts,
  noticeUrl,
  ownAccount,
  PROVIDER_SHAPES,
  type ConnectInput,
  type LiveProvider,
} from "./accounts";
import { isResting, noteFailure, noteSuccess } from "./health";
import type { Bank } from "./banks";
import {
  ProviderRefused,
  type Channel,
  type Connector,
  type IssueRequest,
  type Issued,
  type ProviderAccount,
  type ProviderName,
} from "./connector";
import { flutterwave } from "./flutterwave/connector";
import { ownReference } from "./own-references";
import { paystack } from "./paystack/connector";
import { sandboxAccount, sandboxConnector } from "./sandbox/connector";
import { seerbit } from "./seerbit/connector";

const connectors: Record<ProviderName, Connector> = { sandbox: sandboxConnector, paystack, flutterwave, seerbit };

export function connectorFor(provider: ProviderName): Connector {
  return connectors[provider];
}

export type IssueOutcome = { issued: Issued; provider: ProviderName; providerAccountId: string | null; issueReference: string };

const servesPayment = (channel: Channel, bank: Bank | undefined) => (account: ProviderAccount) =>
  connectors[account.provider].serves(channel, bank);

/** The merchant's connected accounts that would serve this payment, in routing order (the fee quote's providers). */
export async function accountsServing(merchantId: string, channel: Channel, bank: Bank | undefined): Promise<ProviderAccount[]> {
  return (await connectedAccounts(merchantId)).filter(servesPayment(channel, bank));
}

/** The accounts that may issue this payment, best first; S3 with none connected, S8 when none serves the bank. */
async function candidates(
  merchantId: string,
  mode: Mode,
  channel: Channel,
  bank: Bank | undefined,
): Promise<{ connector: Connector; account: ProviderAccount }[]> {
  if (mode === "test") return [{ connector: sandboxConnector, account: sandboxAccount }];
  const accounts = await connectedAccounts(merchantId);
  if (accounts.length === 0)
    throw new ApiError("S3", "No bank-side provider is connected for live mode; connect one on the Providers page");
  const serving = accounts.filter(servesPayment(channel, bank)).map((account) => ({ connector: connectors[account.provider], account }));
  if (serving.length === 0) {
    if (channel === "USSD")
      throw new ApiError("S8", "No connected provider serves USSD for this bankCode: see GET /api/v2/banks", [
        { field: "bankCode", message: "no connected provider serves this bank" },
      ]);
    throw new ApiError("S3", "No connected provider serves bank transfers; connect one that does on the Providers page");
  }
  return serving;
}

function describe(err: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timeout after ${timeoutMs / 1000} s`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Issues a code or account: each attempt gets a fresh reference (`referenceFor(n)` behind the provider's form of Owo's
 * own prefix, own-references.ts), is bounded by
 * OWO_PROVIDER_TIMEOUT_MS, and on failure the next provider is tried. All failing: 502 S502 naming each one.
 */
export async function issueThroughProviders(
  merchantId: string,
  mode: Mode,
  req: Omit<IssueRequest, "reference">,
  referenceFor: (attempt: number) => string,
): Promise<IssueOutcome> {
  const timeoutMs = settings().providerTimeoutMs;
  const failures: FieldError[] = [];
  let attempt = 0;
  for (const { connector, account } of await candidates(merchantId, mode, req.channel, req.bank)) {
    const field = `provider.${account.provider}`;
    if (await isResting(account.id)) {
      failures.push({ field, message: `${account.id}: resting after repeated failures` });
      continue;
    }
    const reference = ownReference(account.provider, referenceFor(++attempt));
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const issued = await connector.issue(account, { ...req, reference, noticeUrl: noticeUrl(account.id) }, signal);
      if (issued.channel !== req.channel) throw new Error(`answered ${issued.channel} for ${req.channel}`);
      await noteSuccess(account.id);
      return { issued, provider: account.provider, providerAccountId: mode === "test" ? null : account.id, issueReference: reference };
    } catch (err) {
      const message = describe(err, signal, timeoutMs);
      // A refusal in the provider's own words (a 4xx) is about this request, not the provider's health.
      await noteFailure(account.id, message, { countsTowardRest: !(err instanceof ProviderRefused) });
      failures.push({ field, message: `${account.id}: ${message}` });
    }
  }
  throw new ApiError("S502", "No provider could issue the payment now; nothing was stored, send the same request again", failures);
}

/** Test mode's issuer is the sandbox bank: in-process, reading only Owo's own tables, never the network. */
export function issuesInProcess(mode: Mode): boolean {
  return mode === "test";
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * The sandbox bank's issue, which alone may run inside a transaction (the reservation's: one transaction instead of
 * two, and its numbers are checked against the very state they are recorded in).
 */
export async function issueInProcess(req: Omit<IssueRequest, "reference">, reference: string): Promise<IssueOutcome> {
  const issued = await sandboxConnector.issue(
    sandboxAccount,
    { ...req, reference, noticeUrl: noticeUrl(sandboxAccount.id) },
    NEVER_ABORTED,
  );
  return { issued, provider: "sandbox", providerAccountId: null, issueReference: reference };
}

/** The dashboard's "test connection": one harmless authenticated call, recorded in the account's health. */
export async function testProviderConnection(merchantId: string, providerId: string): Promise<{ ok: boolean; message: string }> {
  const account = await ownAccount(merchantId, providerId);
  const timeoutMs = settings().providerTimeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    await connectors[account.provider].testConnection(account, signal);
    await noteSuccess(account.id);
    return { ok: true, message: `${account.provider} accepted the credentials` };
  } catch (err) {
    const message = describe(err, signal, timeoutMs);
    await noteFailure(account.id, message, { countsTowardRest: false });
    return { ok: false, message };
  }
}

/**
 * Connecting an account from the dashboard or the CLI: the credentials are tried first with the same harmless call as
 * "test connection", and nothing is saved (so no live keys are offered) when the provider refuses them or cannot be
 * reached. A refusal is put on the credential fields; an unreachable provider is S502 naming where Owo called.
 */
export function connectTestedProvider(merchantId: string, input: ConnectInput, door: { baseUrlAllowed: boolean }) {
  return connectProvider(merchantId, input, { ...door, prove: proveCredentials });
}

async function proveCredentials(account: ProviderAccount): Promise<void> {
  const timeoutMs = settings().providerTimeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    await connectors[account.provider].testConnection(account, signal);
  } catch (err) {
    const message = describe(err, signal, timeoutMs);
    if (err instanceof ProviderRefused) {
      const names = PROVIDER_SHAPES[account.provider as LiveProvider].credentials.filter((name) => name !== "secretHash");
      throw invalidFields(
        names.map((field) => ({ field, message: `${account.provider} refused the credentials (${message}); nothing was saved` })),
      );
    }
    throw new ApiError(
      "S502",
      `Could not reach ${account.provider} at ${account.baseUrl} to check the credentials (${message}); nothing was saved. Check the base URL or try again.`,
    );
  }
}
