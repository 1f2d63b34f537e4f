// A provider account's health: last success, last failure and the circuit breaker, which the database holds so every
// instance sees it; and the connected accounts as the Providers page shows them.
import { eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { providerAccounts } from "../../db/schema";
import { clock } from "../clock";
import { settings } from "../settings";
import { connectedRows, noticeUrl } from "./accounts";
import type { ProviderName } from "./connector";

const FAILURE_WINDOW_MS = 60_000;
const FAILURES_TO_REST = 5;

export type ProviderHealth = {
  providerId: string;
  provider: ProviderName;
  priority: number;
  baseUrl: string;
  /** Each credential's last 4 characters: all that is ever shown again. */
  credentialsLast4: Record<string, string>;
  providerTestMode: boolean;
  noticeUrl: string;
  createdAt: number;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastFailure: string | null;
  circuit: "closed" | "resting";
  restingUntil: number | null;
  /** The merchant marked this account approved by its provider for refunds through Owo. */
  refundsEnabled: boolean;
  /** Where notices for the merchant's other sales on this account are forwarded; null: nowhere. */
  forwardUrl: string | null;
};

/** The merchant's connected accounts as the Providers page shows them, best first. */
export async function providerHealth(merchantId: string, now = clock.now()): Promise<ProviderHealth[]> {
  return (await connectedRows(merchantId)).map((r) => {
    const resting = r.restingUntil !== null && r.restingUntil > now;
    return {
      providerId: r.id,
      provider: r.provider,
      priority: r.priority,
      baseUrl: r.baseUrl,
      credentialsLast4: JSON.parse(r.credentialsLast4) as Record<string, string>,
      providerTestMode: r.providerTestMode,
      noticeUrl: noticeUrl(r.id),
      createdAt: r.createdAt,
      lastSuccessAt: r.lastSuccessAt,
      lastFailureAt: r.lastFailureAt,
      lastFailure: r.lastFailure,
      circuit: resting ? "resting" : "closed",
      restingUntil: resting ? r.restingUntil : null,
      refundsEnabled: r.refundsEnabled,
      forwardUrl: r.forwardUrl,
    };
  });
}

export async function isResting(providerId: string, now = clock.now()): Promise<boolean> {
  const [row] = await db()
    .select({ restingUntil: providerAccounts.restingUntil })
    .from(providerAccounts)
    .where(eq(providerAccounts.id, providerId));
  return row?.restingUntil !== null && row?.restingUntil !== undefined && row.restingUntil > now;
}

export async function noteSuccess(providerId: string, now = clock.now()): Promise<void> {
  if (providerId === "sandbox") return;
  await write(async (tx) =>
    tx
      .update(providerAccounts)
      .set({ lastSuccessAt: now, failureCount: 0, failureWindowStart: null })
      .where(eq(providerAccounts.id, providerId)),
  );
}

/** Five failures within a minute rest the provider OWO_PROVIDER_REST_SECONDS: routing skips it meanwhile. */
export async function noteFailure(
  providerId: string,
  message: string,
  opts: { countsTowardRest: boolean },
  now = clock.now(),
): Promise<void> {
  if (providerId === "sandbox") return;
  await write(async (tx) => {
    const [row] = await tx.select().from(providerAccounts).where(eq(providerAccounts.id, providerId));
    if (!row) return;
    if (!opts.countsTowardRest) {
      await tx
        .update(providerAccounts)
        .set({ lastFailureAt: now, lastFailure: message.slice(0, 300) })
        .where(eq(providerAccounts.id, providerId));
      return;
    }
    const fresh = row.failureWindowStart === null || now - row.failureWindowStart > FAILURE_WINDOW_MS;
    const count = fresh ? 1 : row.failureCount + 1;
    const rest = count >= FAILURES_TO_REST;
    await tx
      .update(providerAccounts)
      .set({
        lastFailureAt: now,
        lastFailure: message.slice(0, 300),
        failureWindowStart: rest ? null : fresh ? now : row.failureWindowStart,
        failureCount: rest ? 0 : count,
        restingUntil: rest ? now + settings().providerRestSeconds * 1000 : row.restingUntil,
      })
      .where(eq(providerAccounts.id, providerId));
  });
}
