// `not_settled` (API.md "Reconciliation"): a credit that no settlement of its provider holds OWO_SETTLEMENT_GRACE_DAYS
// working days (Monday to Friday, Africa/Lagos) after it arrived; with 0 days, as soon as a settlement of that provider
// is read without it. Checked whenever a provider's settlements are read (in that transaction) and hourly by one
// instance; a later settlement that holds the credit closes the exception (server/settlements/record.ts).
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { bankNotices, payments, providerAccounts, settlements } from "../../db/schema";
import { clock } from "../clock";
import { loopTurn } from "../leases";
import { log } from "../logger";
import { DAY_MS, dayStartOf } from "../payments/calendar";
import { repeatEvery } from "../recurring";
import { settings } from "../settings";
import { creditsOf, settlementsOf, type SettlementSource } from "../settlements/sources";
import { openExceptions } from "./exceptions";

const WAT_OFFSET_MS = 3_600_000;

/** True for Monday to Friday of the Lagos day holding `ms`. */
function isWorkingDay(ms: number): boolean {
  const weekday = new Date(dayStartOf(ms) + WAT_OFFSET_MS).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/** When a credit that arrived at `arrivedAt` is overdue: that time of day, `days` working days later. */
export function settlementDeadline(arrivedAt: number, days: number): number {
  let at = arrivedAt;
  for (let counted = 0; counted < days;) {
    at += DAY_MS;
    if (isWorkingDay(at)) counted++;
  }
  return at;
}

/** Opens a not_settled exception for each overdue credit of the source that no settlement holds; returns how many. */
export async function checkNotSettled(
  tx: Tx,
  source: SettlementSource,
  now: number,
  graceDays = settings().settlementGraceDays,
): Promise<number> {
  const providerId = source.providerAccountId ?? "sandbox";
  let before: number;
  if (graceDays === 0) {
    const [latest] = await tx
      .select({ createdAt: settlements.createdAt })
      .from(settlements)
      .where(settlementsOf(source))
      .orderBy(desc(settlements.createdAt))
      .limit(1);
    if (!latest) return 0;
    before = latest.createdAt;
  } else before = now - graceDays * DAY_MS; // working days span at least as many calendar days: a bound, refined below
  const byPayment =
    source.providerAccountId === null ? sql`` : sql` or (l.kind = 'payment' and l.payment_reference = ${payments.paymentReference})`;
  const unsettled = await tx
    .select({
      transactionId: bankNotices.providerTransactionId,
      amountKobo: bankNotices.amountKobo,
      receivedAt: bankNotices.receivedAt,
      paymentReference: payments.paymentReference,
    })
    .from(bankNotices)
    .innerJoin(payments, eq(payments.id, bankNotices.paymentId))
    .where(
      and(
        creditsOf(source),
        lt(bankNotices.receivedAt, before),
        // A live provider's lines name its own transactions, matched to Owo's payments by reference instead.
        sql`not exists (select 1 from settlement_lines l join settlements s on s.id = l.settlement_id
          where s.merchant_id = ${source.merchantId} and s.mode = ${source.mode} and s.provider_id = ${providerId}
          and (l.provider_transaction_id = ${bankNotices.providerTransactionId}${byPayment}))`,
        sql`not exists (select 1 from reconciliation_exceptions e where e.merchant_id = ${source.merchantId}
          and e.mode = ${source.mode} and e.kind = 'not_settled' and e.subject = ${bankNotices.providerTransactionId})`,
      ),
    );
  const overdue = graceDays === 0 ? unsettled : unsettled.filter((c) => settlementDeadline(c.receivedAt, graceDays) <= now);
  const opened = await openExceptions(
    tx,
    source.merchantId,
    source.mode,
    overdue.map((c) => ({
      kind: "not_settled" as const,
      subject: c.transactionId,
      settlementId: null,
      paymentReference: c.paymentReference,
      expectedKobo: c.amountKobo,
      actualKobo: null,
    })),
    now,
  );
  return opened.length;
}

/**
 * Every source whose settlements Owo expects: the sandbox bank for test mode (while it settles), and each live provider
 * account not in its provider's own test mode (those settle nothing).
 */
async function expectingSources(): Promise<SettlementSource[]> {
  const sources: SettlementSource[] = [];
  if (settings().sandboxSettlement) {
    const sandboxMerchants = await db()
      .selectDistinct({ merchantId: payments.merchantId })
      .from(payments)
      .where(and(eq(payments.mode, "test"), isNull(payments.providerAccountId), sql`${payments.amountPaidKobo} > 0`));
    for (const m of sandboxMerchants)
      sources.push({ merchantId: m.merchantId, mode: "test", provider: "sandbox", providerAccountId: null });
  }
  const accounts = await db()
    .select({ id: providerAccounts.id, merchantId: providerAccounts.merchantId, provider: providerAccounts.provider })
    .from(providerAccounts)
    .where(and(eq(providerAccounts.providerTestMode, false), isNull(providerAccounts.disconnectedAt)));
  for (const a of accounts) sources.push({ merchantId: a.merchantId, mode: "live", provider: a.provider, providerAccountId: a.id });
  return sources;
}

export async function checkAllNotSettled(now = clock.now()): Promise<number> {
  let opened = 0;
  for (const source of await expectingSources()) opened += await write((tx) => checkNotSettled(tx, source, now));
  return opened;
}

/** The hourly check, on the one instance holding the loop. */
export function startNotSettledChecker(everyMs = 3_600_000): () => Promise<void> {
  const turn = loopTurn("not-settled", () => Math.max(10, (3 * everyMs) / 1000));
  const stop = repeatEvery(everyMs, "not-settled check", async () => {
    if (!(await turn.held())) return;
    const opened = await checkAllNotSettled();
    if (opened > 0) log.info({ opened }, "credits no settlement holds past the grace days");
  });
  return async () => {
    await stop();
    await turn.release();
  };
}
