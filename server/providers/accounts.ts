// A merchant's provider accounts: connected with sealed credentials, ranked by priority (their health: health.ts).
import { and, asc, eq, isNull } from "drizzle-orm";
import { db, write, type Db } from "../../db/client";
import { merchants, providerAccounts, type ProviderAccountRow } from "../../db/schema";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { seal, unseal } from "../auth/master-key";
import { newId } from "../identifiers";
import { clock } from "../clock";
import { settings } from "../settings";
import { checkDestination } from "../webhooks/address-guard";
import type { ProviderAccount, ProviderName } from "./connector";
import type { FeeSchedule } from "../fees";

export type LiveProvider = Exclude<ProviderName, "sandbox">;
export const LIVE_PROVIDERS: readonly LiveProvider[] = ["paystack", "flutterwave", "seerbit"];

/** Each provider's public API root and the credentials it needs (API.md "Operator CLI"). */
export const PROVIDER_SHAPES: Record<LiveProvider, { baseUrl: string; credentials: readonly string[]; testKey: RegExp }> = {
  paystack: { baseUrl: "https://api.paystack.co", credentials: ["secretKey"], testKey: /^sk_test_/ },
  flutterwave: { baseUrl: "https://api.flutterwave.com", credentials: ["secretKey", "secretHash"], testKey: /^FLWSECK_TEST/ },
  seerbit: { baseUrl: "https://seerbitapi.com", credentials: ["publicKey", "secretKey"], testKey: /^(SBTEST|pk_test_)/ },
};

export function noticeUrl(providerId: string): string {
  return `${settings().publicUrl}/api/v2/providers/${providerId}/notices`;
}

/** A provider cannot reach an http or loopback notice URL; the CLI and the dashboard say so. */
export function noticeUrlWarning(url: string): string | null {
  const { protocol, hostname } = new URL(url);
  if (/^(localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(hostname))
    return `the notice URL ${url} is a loopback address: a provider cannot reach it`;
  if (protocol !== "https:") return `the notice URL ${url} is not https: providers send notices only to https URLs`;
  return null;
}

export type ConnectInput = { provider: string; credentials: Record<string, string | undefined>; priority?: number; baseUrl?: string };
/**
 * The operator's CLI may always point a provider elsewhere; the dashboard only with OWO_ALLOW_PROVIDER_BASE_URL=1.
 * `prove`: tries the credentials at the provider before anything is saved, throwing what failed (the registry's
 * proveCredentials; it lives there because only the registry knows the connectors).
 */
export type ConnectDoor = { baseUrlAllowed: boolean; prove?: (account: ProviderAccount) => Promise<void> };

/** Connects an account for live mode; credentials are sealed and only their last 4 characters are kept in clear. */
export async function connectProvider(
  merchantId: string,
  input: ConnectInput,
  door: ConnectDoor = { baseUrlAllowed: true },
  now = clock.now(),
) {
  const provider = input.provider as LiveProvider;
  const shape = PROVIDER_SHAPES[provider];
  if (!LIVE_PROVIDERS.includes(provider) || !shape) {
    throw invalidFields([{ field: "provider", message: `must be one of ${LIVE_PROVIDERS.join(", ")}` }]);
  }
  const errors: FieldError[] = [];
  const credentials: Record<string, string> = {};
  for (const name of shape.credentials) {
    const value = input.credentials[name]?.trim() ?? "";
    if (value.length < 8 || value.length > 500) errors.push({ field: name, message: `is required for ${provider} (8 to 500 characters)` });
    credentials[name] = value;
  }
  let baseUrl = shape.baseUrl;
  if (input.baseUrl !== undefined && input.baseUrl !== "" && !door.baseUrlAllowed) {
    errors.push({
      field: "baseUrl",
      message: "is not offered on this Owo (the operator sets OWO_ALLOW_PROVIDER_BASE_URL=1 for staging hosts and test doubles)",
    });
  } else if (input.baseUrl !== undefined && input.baseUrl !== "") {
    const parsed = URL.canParse(input.baseUrl) ? new URL(input.baseUrl) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol)) errors.push({ field: "baseUrl", message: "must be an absolute http(s) URL" });
    else baseUrl = input.baseUrl.replace(/\/+$/, "");
  }
  const priority = input.priority ?? null;
  if (priority !== null && (!Number.isInteger(priority) || priority < 1 || priority > 99))
    errors.push({ field: "priority", message: "must be a whole number from 1 to 99" });
  if (errors.length) throw invalidFields(errors);
  const id = newId("prv");
  if (door.prove) await door.prove({ id, provider, baseUrl, credentials });
  const last4 = Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, v.slice(-4)]));
  await write(async (tx) => {
    if (!(await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)))[0])
      throw new ApiError("S404", `No merchant ${merchantId}`);
    const taken = await tx
      .select({ priority: providerAccounts.priority })
      .from(providerAccounts)
      .where(and(eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)));
    await tx.insert(providerAccounts).values({
      id,
      merchantId,
      provider,
      priority: priority ?? Math.max(0, ...taken.map((t) => t.priority)) + 1,
      baseUrl,
      credentialsEnc: seal(JSON.stringify(credentials)),
      credentialsLast4: JSON.stringify(last4),
      providerTestMode: shape.credentials.some((name) => shape.testKey.test(credentials[name] ?? "")),
      createdAt: now,
      lastSuccessAt: door.prove ? now : null,
    });
  });
  return { providerId: id, provider, noticeUrl: noticeUrl(id) };
}

function opened(row: ProviderAccountRow): ProviderAccount {
  return {
    id: row.id,
    provider: row.provider,
    baseUrl: row.baseUrl,
    credentials: JSON.parse(unseal(row.credentialsEnc)) as Record<string, string>,
    refundsEnabled: row.refundsEnabled,
  };
}

/** The merchant's connected (not disconnected) account rows in priority order, then oldest first: the order routing
 * tries them in and the Providers page shows them in (health.ts). */
export function connectedRows(merchantId: string): Promise<ProviderAccountRow[]> {
  return db()
    .select()
    .from(providerAccounts)
    .where(and(eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)))
    .orderBy(asc(providerAccounts.priority), asc(providerAccounts.createdAt));
}

/** The merchant's connected accounts, credentials unsealed, in priority order (then oldest first). */
export async function connectedAccounts(merchantId: string): Promise<ProviderAccount[]> {
  return (await connectedRows(merchantId)).map(opened);
}

export async function hasConnectedProvider(merchantId: string): Promise<boolean> {
  return (
    (
      await db()
        .select({ id: providerAccounts.id })
        .from(providerAccounts)
        .where(and(eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)))
    )[0] !== undefined
  );
}

/** The account a notice URL names, whoever's it is (the URL is the only thing a provider knows). `q`: db() or a tx. */
export async function accountById(
  q: Db,
  providerId: string,
): Promise<(ProviderAccount & { merchantId: string; forwardUrl: string | null }) | null> {
  const [row] = await q.select().from(providerAccounts).where(eq(providerAccounts.id, providerId));
  return row ? { ...opened(row), merchantId: row.merchantId, forwardUrl: row.forwardUrl } : null;
}

/** The merchant's own account, for the dashboard; another merchant's is not found. */
export async function ownAccount(merchantId: string, providerId: string): Promise<ProviderAccount> {
  const [row] = await db()
    .select()
    .from(providerAccounts)
    .where(and(eq(providerAccounts.id, providerId), eq(providerAccounts.merchantId, merchantId)));
  if (!row || row.disconnectedAt !== null) throw new ApiError("S404", "No such provider account");
  return opened(row);
}

/** Changes one of the merchant's own connected accounts; another merchant's (or a disconnected one) is not found. */
async function updateOwnAccount(merchantId: string, providerId: string, set: Partial<typeof providerAccounts.$inferInsert>): Promise<void> {
  const done = await write(async (tx) =>
    tx
      .update(providerAccounts)
      .set(set)
      .where(and(eq(providerAccounts.id, providerId), eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)))
      .returning({ id: providerAccounts.id }),
  );
  if (done.length === 0) throw new ApiError("S404", "No such provider account");
}

/** The merchant says whether its provider approved refunds through the API for this account (SeerBit asks it to). */
export function setRefundsEnabled(merchantId: string, providerId: string, enabled: boolean): Promise<void> {
  return updateOwnAccount(merchantId, providerId, { refundsEnabled: enabled });
}

/** The fee schedule the merchant agreed with this provider, or none (server/books/fee-schedules.ts reads and checks it). */
export function setAgreedFees(merchantId: string, providerId: string, schedule: FeeSchedule | null): Promise<void> {
  return updateOwnAccount(merchantId, providerId, {
    feePercentBasisPoints: schedule?.percentBasisPoints ?? null,
    feeFlatKobo: schedule?.flatKobo ?? null,
    feeFlatWaivedUnderKobo: schedule?.flatWaivedUnderKobo ?? null,
    feeCapKobo: schedule?.capKobo ?? null,
  });
}

const MAX_FORWARD_URL = 2048;

/**
 * Where notices for the merchant's other sales on this account are forwarded (null: nowhere, they are only recorded).
 * The callback rules apply: a public http(s) URL, judged again at every attempt (webhooks/address-guard.ts).
 */
export async function setForwardUrl(merchantId: string, providerId: string, url: string | null): Promise<void> {
  const wanted = url?.trim() || null;
  if (wanted !== null) {
    const destination = checkDestination(wanted, settings().allowPrivateCallbacks);
    if (wanted.length > MAX_FORWARD_URL)
      throw invalidFields([{ field: "forwardUrl", message: `must be at most ${MAX_FORWARD_URL} characters` }]);
    if (!destination.ok)
      throw invalidFields([
        {
          field: "forwardUrl",
          message: `must be a public http(s) URL, e.g. https://shop.example.ng/paystack/webhook (${destination.reason})`,
        },
      ]);
  }
  return updateOwnAccount(merchantId, providerId, { forwardUrl: wanted });
}

/** Stops routing and notices to this account; payments it issued keep their history. */
export function disconnectProvider(merchantId: string, providerId: string, now = clock.now()): Promise<void> {
  return updateOwnAccount(merchantId, providerId, { disconnectedAt: now });
}
