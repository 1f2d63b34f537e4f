// Issuing a payment's code or account at the bank side: the provider call runs outside any transaction, between
// the reservation that made the payment row (initiate.ts, or standard checkout) and the transaction that records
// the answer. A reserved row has `reservedAt` set until that record.
import { and, eq, isNotNull, isNull, lt, ne } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { merchants, payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import type { Bank } from "../providers/banks";
import type { IssueRequest } from "../providers/connector";
import { issueThroughProviders, type IssueOutcome } from "../providers/registry";
import { clock } from "../clock";
import { settings } from "../settings";

export type ChannelChoice = { channel: "USSD"; bank: Bank } | { channel: "TRANSFER" };

/** How long a reservation may stand before a retry may take it over (its process died mid-issue). */
export function reservationStaleAfterMs(): number {
  return settings().providerTimeoutMs * 10 + 5_000;
}

/** The first requery of a live payment (API.md "Requery": about a minute after issue). */
export function firstRequeryAt(now: number): number {
  return now + Math.round(60_000 * settings().requeryBackoffScale);
}

export function issuedColumns(p: Pick<PaymentRow, "expiresAt" | "mode">, choice: ChannelChoice, outcome: IssueOutcome, now: number) {
  const { issued } = outcome;
  const common = {
    paymentType: choice.channel,
    provider: outcome.provider,
    providerAccountId: outcome.providerAccountId,
    issueReference: outcome.issueReference,
    providerReference: issued.providerReference,
    reservedAt: null,
    expiresAt: Math.min(p.expiresAt, issued.expiresAt ?? Infinity),
    nextRequeryAt: p.mode === "live" ? firstRequeryAt(now) : null,
    updatedAt: now,
  };
  return issued.channel === "USSD"
    ? {
        ...common,
        bankCode: choice.channel === "USSD" ? choice.bank.bankCode : null,
        dialCode: issued.dialCode,
        accountNumber: null,
        accountBankName: null,
        walletName: null,
      }
    : {
        ...common,
        bankCode: null,
        dialCode: null,
        accountNumber: issued.accountNumber,
        accountBankName: issued.bankName,
        walletName: issued.accountName,
      };
}

/** What the bank side is asked for a payment (its reference is per attempt). */
export function issueRequest(p: Omit<PaymentRow, "id">, choice: ChannelChoice, merchantName: string): Omit<IssueRequest, "reference"> {
  return {
    channel: choice.channel,
    amountKobo: p.amountKobo,
    currency: "NGN",
    bank: choice.channel === "USSD" ? choice.bank : undefined,
    customer: { fullName: p.fullName, email: p.email, mobileNumber: p.mobileNumber },
    merchantName,
    expiresAt: p.expiresAt,
  };
}

/**
 * Issues `choice` for a reserved payment and records it: `finish` runs in the recording transaction with the
 * issued row (to write the answer and the timeline). A provider answer that collides with a number already
 * recorded (two racing sandbox draws) is asked again; S502 and every other refusal propagate, reservation intact.
 */
export async function issueReserved(
  p: PaymentRow,
  choice: ChannelChoice,
  finish: (tx: Tx, issued: PaymentRow) => Promise<PaymentRow>,
  now = clock.now(),
): Promise<PaymentRow> {
  const [merchant] = await db().select({ name: merchants.name }).from(merchants).where(eq(merchants.id, p.merchantId));
  if (!merchant) throw new ApiError("S404", "Merchant not found");
  let attempts = 0;
  for (let round = 0; ; round++) {
    const outcome = await issueThroughProviders(
      p.merchantId,
      p.mode,
      issueRequest(p, choice, merchant.name),
      () => `${p.linkingReference}-${++attempts}`,
    );
    try {
      return await write(
        async (tx) => {
          const [recorded] = await tx
            .update(payments)
            .set(issuedColumns(p, choice, outcome, now))
            .where(and(eq(payments.id, p.id), isNotNull(payments.reservedAt)))
            .returning();
          if (!recorded) throw new Error(`payment ${p.id} lost its reservation while being issued`);
          return finish(tx, recorded);
        },
        { isolation: "read committed" },
      );
    } catch (err) {
      if (!isUniqueViolation(err) || round >= 2) throw err;
    }
  }
}

/**
 * Reservations whose process died mid-issue: the sweeper removes those never answered to anyone; a standard-checkout
 * payment (answered to the merchant before its customer chose a channel) only loses the reservation.
 */
export async function dropStaleReservations(now = clock.now()): Promise<number> {
  const stale = lt(payments.reservedAt, now - reservationStaleAfterMs());
  return write(async (tx) => {
    const released = await tx
      .update(payments)
      .set({ reservedAt: null })
      .where(and(stale, isNull(payments.paymentType), ne(payments.answerJson, "")))
      .returning({ id: payments.id });
    const dropped = await tx
      .delete(payments)
      .where(and(stale, eq(payments.answerJson, "")))
      .returning({ id: payments.id });
    return released.length + dropped.length;
  });
}

/** Removes a reservation that was never issued (S502 or any refusal): nothing stays, the reference is free. */
export async function dropReservation(paymentId: number): Promise<void> {
  await write(async (tx) => tx.delete(payments).where(and(eq(payments.id, paymentId), isNotNull(payments.reservedAt))));
}
