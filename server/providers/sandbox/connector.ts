// The sandbox bank as a connector: dial codes with the customer's bank's real short code, accounts at bank 000,
// and its own record of the money it sent (the notices it signed) for query. It serves Owo's test mode only.
import { and, eq } from "drizzle-orm";
import { db } from "../../../db/client";
import { bankNotices, payments } from "../../../db/schema";
import { randomDigits } from "../../identifiers";
import { dialCode, sandboxHoldingBank } from "../banks";
import type { Connector, ProviderAccount } from "../connector";
import { NoticeRejected } from "../connector";
import { nubanFor } from "../nuban";
import { sandboxQueryRefund, sandboxRefund } from "./refunds";

/** The sandbox needs no credentials; it is reached in-process and tells Owo of money over HTTP (bank.ts). */
export const sandboxAccount: ProviderAccount = { id: "sandbox", provider: "sandbox", baseUrl: "", credentials: {} };

// Numbers are drawn, not looked up: 10^8 dial references a bank and 10^9 accounts make a repeat rare, and the partial
// unique indexes on payments (sandbox numbers) refuse one, after which the core asks again (payments/initiate.ts reserves
// again, payments/issue.ts issues again). A lookup first cost every test-mode initiation a statement (a round trip on
// PostgreSQL) for a repeat the index catches anyway.
export const sandboxConnector: Connector = {
  name: "sandbox",
  serves(channel, bank) {
    return channel === "TRANSFER" || Boolean(bank?.ussdCode);
  },
  async issue(_account, req) {
    if (req.channel === "USSD") {
      const bank = req.bank;
      if (!bank?.ussdCode) throw new Error(`sandbox bank: bank ${bank?.bankCode ?? "?"} has no USSD service`);
      const providerReference = randomDigits(8);
      return { channel: "USSD", providerReference, dialCode: dialCode(bank.ussdCode, providerReference) };
    }
    const accountNumber = nubanFor(sandboxHoldingBank.bankCode, randomDigits(9));
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
