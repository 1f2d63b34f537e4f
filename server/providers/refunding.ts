// Refunds at the provider that served the payment: whether it can, the submission, and the query. Network I/O,
// bounded by OWO_PROVIDER_TIMEOUT_MS; never called inside a database transaction (refundsAt, which only reads, is
// asked inside one with its tx).
import { db, type Db } from "../../db/client";
import { settings } from "../settings";
import { accountById } from "./accounts";
import {
  ProviderRefused,
  ProviderUnavailable,
  type Connector,
  type CustomerAccount,
  type ProviderAccount,
  type ProviderBank,
  type ProviderName,
  type RefundLookup,
  type RefundRequest,
  type RefundState,
} from "./connector";
import { connectorFor } from "./registry";
import { sandboxAccount } from "./sandbox/connector";

/** Where a payment (or its refund) lives: the provider, and the merchant's account there (null: the sandbox bank). */
export type ProviderPlace = { provider: ProviderName; providerAccountId: string | null };

type Refunder = { connector: Connector; account: ProviderAccount; refund: NonNullable<Connector["refund"]> };

/** `q`: db(), or the caller's tx when it asks inside one (refundsAt while reserving a refund). */
async function refunderAt(q: Db, place: ProviderPlace): Promise<Refunder | null> {
  const connector = connectorFor(place.provider);
  const account =
    place.providerAccountId === null
      ? place.provider === "sandbox"
        ? sandboxAccount
        : null
      : await accountById(q, place.providerAccountId);
  if (!connector?.refund || !account) return null;
  // SeerBit refunds through its API only for merchants it approved: the merchant says so per account.
  if (connector.refundsNeedApproval && !account.refundsEnabled) return null;
  return { connector, account, refund: connector.refund.bind(connector) };
}

/** False where the provider documents no refund for these charges: the merchant refunds at the provider itself. */
export async function refundsAt(q: Db, place: ProviderPlace): Promise<boolean> {
  return (await refunderAt(q, place)) !== null;
}

/**
 * The provider's own final no (ProviderRefused: a 4xx in its words). Anything else (a timeout, a 5xx, an unreachable
 * host, an answer Owo could not read) is no verdict: the refund may or may not exist there, so it is asked again.
 */
export function isRefusal(err: unknown): boolean {
  return err instanceof ProviderRefused;
}

/**
 * Whether a submission that failed may have reached the provider (a timeout, a 5xx, a reset, an unreadable answer):
 * then the refund may exist there. Only a request that certainly never left (a refused connection, an unknown host)
 * is not; a refusal is an answer, not this.
 */
export function mayHaveReached(err: unknown): boolean {
  return !(err instanceof ProviderUnavailable && !err.mayHaveReached);
}

export function describeFailure(err: unknown): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError"))
    return `timeout after ${settings().providerTimeoutMs / 1000} s`;
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return err instanceof Error ? err.message + cause : String(err);
}

export async function submitRefund(place: ProviderPlace, req: RefundRequest): Promise<RefundState> {
  const refunder = await refunderAt(db(), place);
  if (!refunder) throw new Error(`${place.provider} cannot refund through Owo`);
  return refunder.refund(refunder.account, req, AbortSignal.timeout(settings().providerTimeoutMs));
}

/** Whether the provider's notices can be verified; an unsigned one (SeerBit's) only ever prompts a query. */
export function noticesSigned(place: ProviderPlace): boolean {
  return connectorFor(place.provider)?.unsignedNotices !== true;
}

/** The refund as the provider now records it; null when the provider offers no way to ask. */
export async function queryRefund(place: ProviderPlace, refundId: string): Promise<RefundState | null> {
  const refunder = await refunderAt(db(), place);
  if (!refunder?.connector.queryRefund) return null;
  return refunder.connector.queryRefund(refunder.account, refundId, AbortSignal.timeout(settings().providerTimeoutMs));
}

/**
 * Looks for an unanswered refund at the provider: its state, null when the provider certainly has none, undefined
 * when the provider offers no way to look (then only its notice, or a query once its id is known, can settle it).
 */
export async function findRefund(place: ProviderPlace, lookup: RefundLookup): Promise<RefundState | null | undefined> {
  const refunder = await refunderAt(db(), place);
  if (!refunder?.connector.findRefund) return undefined;
  return refunder.connector.findRefund(refunder.account, lookup, AbortSignal.timeout(settings().providerTimeoutMs));
}

/** The banks the provider can pay a refund into (its own list); empty where it never asks for the customer's account. */
export async function refundBanksAt(place: ProviderPlace): Promise<ProviderBank[]> {
  const refunder = await refunderAt(db(), place);
  if (!refunder?.connector.refundBanks) return [];
  return refunder.connector.refundBanks(refunder.account, AbortSignal.timeout(settings().providerTimeoutMs));
}

/** Sends a refund that waits for the customer's account again, to that account. */
export async function retryRefundAt(place: ProviderPlace, refundId: string, to: CustomerAccount): Promise<RefundState> {
  const refunder = await refunderAt(db(), place);
  if (!refunder?.connector.retryRefund) throw new Error(`${place.provider} takes no customer account for a refund`);
  return refunder.connector.retryRefund(refunder.account, refundId, to, AbortSignal.timeout(settings().providerTimeoutMs));
}
