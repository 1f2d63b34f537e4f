// What each provider account heard and asked: notices (with the outcome and its reason) and requeries, for the
// payment timeline and the Providers page. Always scoped to the merchant that owns the account.
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments, providerAccounts, providerNotices } from "../../db/schema";
import type { Scope } from "../merchants/scope";

export type NoticeLogEntry = {
  providerId: string;
  source: "notice" | "requery";
  outcome: string;
  reason: string;
  eventId: string | null;
  paymentReference: string | null;
  receivedAt: number;
};

export async function providerNoticesOf(q: Db, { merchantId, mode }: Scope, paymentReference?: string): Promise<NoticeLogEntry[]> {
  const where: SQL[] = [eq(providerAccounts.merchantId, merchantId)];
  if (paymentReference !== undefined) where.push(eq(payments.paymentReference, paymentReference), eq(payments.mode, mode));
  return q
    .select({
      providerId: providerNotices.providerAccountId,
      source: providerNotices.source,
      outcome: providerNotices.outcome,
      reason: providerNotices.reason,
      eventId: providerNotices.eventId,
      paymentReference: payments.paymentReference,
      receivedAt: providerNotices.receivedAt,
    })
    .from(providerNotices)
    .innerJoin(providerAccounts, eq(providerAccounts.id, providerNotices.providerAccountId))
    .leftJoin(payments, eq(payments.id, providerNotices.paymentId))
    .where(and(...where))
    .orderBy(asc(providerNotices.id));
}
