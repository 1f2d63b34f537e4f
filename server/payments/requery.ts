// Requery (API.md "Requery"): open live payments are asked about at their provider on a backoff schedule, so a lost
// notice never loses a payment; verify asks too when the last answer is older than 30 s. The provider's record is
// applied by the same rule as a notice's (provider-records.ts), so the state and callbacks are the same.
import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { db, write } from "../../db/client";
import { payments, providerNotices, type PaymentRow } from "../../db/schema";
import { clock } from "../clock";
import { loopTurn } from "../leases";
import { expireIfOverdue } from "./lifecycle";
import { applyProviderRecord } from "./provider-records";
import { formatKobo } from "../money";
import { isOpen } from "./status";
import { repeatEvery } from "../recurring";
import { settings } from "../settings";
import { accountById } from "../providers/accounts";
import { queryProvider } from "./notices";

const MINUTE = 60_000;
/** Waits between asks: about 1, 2, 5, 10 minutes, then every 15 until expiry, and once after it. */
const BACKOFF_MS = [1, 2, 5, 10].map((m) => m * MINUTE);
const STEADY_MS = 15 * MINUTE;
export const VERIFY_REQUERY_AFTER_MS = 30_000;

/** When to ask next after `count` asks, or null when nothing is left to ask. */
export function nextRequeryAt(
  p: Pick<PaymentRow, "status" | "expiresAt" | "lastProviderAnswerAt">,
  count: number,
  now: number,
): number | null {
  if (!isOpen(p.status)) return null;
  const scale = settings().requeryBackoffScale;
  const wait = Math.max(1, Math.round((BACKOFF_MS[count] ?? STEADY_MS) * scale));
  // Past expiry with an answer given after it, the payment has been expired or settled by that answer.
  if (p.lastProviderAnswerAt !== null && p.lastProviderAnswerAt >= p.expiresAt) return null;
  // The one ask after expiry: right after it, however the backoff stands.
  return now < p.expiresAt ? Math.min(now + wait, p.expiresAt) : now + wait;
}

async function note(
  providerAccountId: string,
  paymentId: number,
  outcome: "applied" | "unchanged" | "unanswered" | "rejected",
  reason: string,
  now: number,
) {
  await write(async (tx) =>
    tx
      .insert(providerNotices)
      .values({ providerAccountId, paymentId, source: "requery", outcome, reason: reason.slice(0, 500), receivedAt: now }),
  );
}

/** Asks the provider about one live payment and applies its record; never throws for the provider's silence. */
export async function requeryPayment(p: PaymentRow, now = clock.now()): Promise<PaymentRow> {
  const account = p.providerAccountId ? await accountById(db(), p.providerAccountId) : null;
  if (!account || !p.issueReference) return p;
  let current = p;
  try {
    const state = await queryProvider(account, p);
    const answeredAt = clock.now();
    const outcome = await applyProviderRecord(
      p.id,
      state,
      { provider: account.id, transactionId: `requery:${p.issueReference}:${state.state}:${state.amountKobo}` },
      answeredAt,
    );
    if (outcome.refused) {
      // Kept open and asked again on schedule: the record may yet be corrected; a person sees why on the Providers page.
      await note(account.id, p.id, "rejected", `provider's record not applied: ${outcome.refused}`, answeredAt);
    } else {
      // Asked after it ran out and still open: now the provider has been heard, Owo's lifetime may end it.
      current = await expireIfOverdue(outcome.payment, answeredAt);
      await note(
        account.id,
        p.id,
        outcome.applied || current !== outcome.payment ? "applied" : "unchanged",
        `provider's record: ${state.state} ${formatKobo(state.amountKobo)}`,
        answeredAt,
      );
    }
  } catch (err) {
    await note(account.id, p.id, "unanswered", err instanceof Error ? err.message : String(err), now);
  }
  const fresh = (await db().select().from(payments).where(eq(payments.id, p.id)))[0] ?? current;
  const count = fresh.requeryCount + 1;
  await write(async (tx) =>
    tx
      .update(payments)
      .set({ requeryCount: count, nextRequeryAt: nextRequeryAt(fresh, count, clock.now()) })
      .where(eq(payments.id, p.id)),
  );
  return { ...fresh, requeryCount: count };
}

/** Verify's requery: synchronous, bounded by OWO_PROVIDER_TIMEOUT_MS; an unanswered one leaves the stored state. */
export async function requeryIfStale(p: PaymentRow, now = clock.now()): Promise<boolean> {
  if (p.providerAccountId === null || p.reservedAt !== null || !isOpen(p.status)) return false;
  if (p.lastProviderAnswerAt !== null && now - p.lastProviderAnswerAt < VERIFY_REQUERY_AFTER_MS) return false;
  await requeryPayment(p, now);
  return true;
}

/** One pass: every live payment whose next ask is due, oldest first, for as long as `stillHeld` lets it go on. */
export async function requeryDue(now = clock.now(), limit = 20, stillHeld: () => Promise<boolean> = async () => true): Promise<number> {
  const due = await db()
    .select()
    .from(payments)
    .where(and(isNotNull(payments.nextRequeryAt), lte(payments.nextRequeryAt, now)))
    .orderBy(asc(payments.nextRequeryAt))
    .limit(limit);
  // One at a time: a slow provider holds only this pass back, and each ask is bounded by its own timeout.
  for (const p of due) {
    if (!(await stillHeld())) break;
    await requeryPayment(p, now);
  }
  return due.length;
}

/**
 * A lease row (SQLite) outlasts one ask (OWO_PROVIDER_TIMEOUT_MS) with room to spare and is renewed before each ask:
 * short, so that when its holder dies (SIGKILL leaves no goodbye) a survivor takes the loop over within it. On
 * PostgreSQL the loop's lock moves on a survivor's next pass instead (server/leases.ts).
 */
function leaseSeconds(): number {
  return Math.max(10, Math.ceil((3 * settings().providerTimeoutMs) / 1000));
}

export function startRequeryLoop(): () => Promise<void> {
  const turn = loopTurn("requery", leaseSeconds);
  const every = Math.min(5_000, Math.max(50, Math.round(5_000 * settings().requeryBackoffScale)));
  const stop = repeatEvery(every, "requery", async () => {
    if (await turn.held()) await requeryDue(clock.now(), 20, turn.held);
  });
  return async () => {
    await stop();
    await turn.release();
  };
}
