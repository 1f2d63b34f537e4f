// The sandbox bank as a connector: dial codes with the customer's bank's real short code, accounts at bank 000,
// and its own record of the money it sent (the notices it signed) for query. It serves Owo's test mode only.
import { and, eq, isNull, sql } from "drizzle-orm";
import { db, prepared } from "../../../db/client";
import { bankNotices, payments } from "../../../db/schema";
import { randomDigits } from "../../identifiers";
import { dialCode, sandboxHoldingBank } from "../banks";
import type { Connector, ProviderAccount } from "../connector";
import { NoticeRejected } from "../connector";
import { nubanFor } from "../nuban";
import { sandboxQueryRefund, sandboxRefund } from "./refunds";

/** The sandbox needs no credentials; it is reached in-process and tells Owo of money over HTTP (bank.ts). */
export const sandboxAccount: ProviderAccount = { id: "sandbox", provider: "sandbox", baseUrl: "", credentials: {} };

// Test mode issues inside the reservation's transaction (payments/initiate.ts), so these see the state the number is
// recorded in; elsewhere (standard checkout) they read outside it, and two racing issues could draw the same number:
// the partial unique indexes on payments (sandbox numbers) refuse the second, and the core asks again (payments/issue.ts).
const dialCodeTaken = prepared((db) =>
  db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        isNull(payments.providerAccountId),
        eq(payments.bankCode, sql.placeholder("bankCode")),
        eq(payments.providerReference, sql.placeholder("candidate")),
      ),
    )
    .limit(1),
);
const accountTaken = prepared((db) =>
  db
    .select({ id: payments.id })
    .from(payments)
    .where(and(isNull(payments.providerAccountId), eq(payments.accountNumber, sql.placeholder("candidate"))))
    .limit(1),
);
const taken = {
  dialCode: async (bankCode: string, candidate: string) => (await dialCodeTaken({ bankCode, candidate })).length > 0,
  account: async (candidate: string) => (await accountTaken({ candidate })).length > 0,
};

/** Random candidates until one is free; with 10^8 and 10^9 spaces a retry is rare, a second rarer still. */
async function firstFree(make: () => string, isTaken: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const candidate = make();
    if (!(await isTaken(candidate))) return candidate;
  }
  throw new Error("sandbox bank: no free number after 100 tries");
}

export const sandboxConnector: Connector = {
  name: "sandbox",
  serves(channel, bank) {
    return channel === "TRANSFER" || Boolean(bank?.ussdCode);
  },
  async issue(_account, req) {
    if (req.channel === "USSD") {
      const bank = req.bank;
      if (!bank?.ussdCode) throw new Error(`sandbox bank: bank ${bank?.bankCode ?? "?"} has no USSD service`);
      const providerReference = await firstFree(
        () => randomDigits(8),
        (candidate) => taken.dialCode(bank.bankCode, candidate),
      );
      return { channel: "USSD", providerReference, dialCode: dialCode(bank.ussdCode, providerReference) };
    }
    const accountNumber = await firstFree(() => nubanFor(sandboxHoldingBank.bankCode, randomDigits(9)), taken.account);
    return {
      channel: "TRANSFER",
      providerReference: accountNumber,
      accountNumber,
      bankName: sandboxHoldingBank.bankName,
      accountName: `OWO(${req.merchantName})`,
    };
  },
  readNotice() {
    // The sandbox bank's notices have their own endpoint and reader (notices.ts); no provider URL takes them.
    throw new NoticeRejected("the sandbox bank's notices go to /api/v2/providers/sandbox/notices");
  },
  async query(_account, reference) {
    const [issued] = await db()
      .select({ id: payments.id, providerReference: payments.providerReference, accountNumber: payments.accountNumber })
      .from(payments)
      .where(and(eq(payments.provider, "sandbox"), eq(payments.issueReference, reference)));
    if (!issued) return { state: "not_found", amountKobo: 0, currency: "NGN" };
    let amountKobo = 0;
    let declined = false;
    let paidAt: number | undefined;
    const received = await db()
      .select({
        kind: bankNotices.kind,
        amountKobo: bankNotices.amountKobo,
        bankTime: bankNotices.bankTime,
        receivedAt: bankNotices.receivedAt,
      })
      .from(bankNotices)
      .where(and(eq(bankNotices.provider, "sandbox"), eq(bankNotices.paymentId, issued.id)));
    for (const n of received) {
      if (n.kind === "decline") declined = true;
      else amountKobo += n.amountKobo;
      paidAt ??= n.bankTime ?? n.receivedAt;
    }
    const state = amountKobo > 0 ? "paid" : declined ? "failed" : "pending";
    return { state, providerReference: issued.providerReference ?? issued.accountNumber ?? undefined, amountKobo, currency: "NGN", paidAt };
  },
  async refund(_account, req) {
    return sandboxRefund(req);
  },
  async queryRefund(_account, refundId) {
    return sandboxQueryRefund(refundId);
  },
  async testConnection() {},
};
