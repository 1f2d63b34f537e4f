// Refunds that need the customer's bank account (API.md "Refunds" and "Live mode"): the provider could not pay one
// back by itself (Paystack's needs-attention, common for USSD and transfers, which have no card to return to). The
// merchant either gives the customer's account — a bank from the provider's own list and a NUBAN-valid number, sent to
// the provider's retry outside any transaction; the refund is PENDING again once the provider took it — or gives the
// refund up: FAILED, its amount free to refund again.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { write } from "../../db/client";
import { payments, refunds, type RefundRow } from "../../db/schema";
import { ApiError, invalidFields } from "../api-error";
import { clock } from "../clock";
import { log } from "../logger";
import type { Scope } from "../merchants/scope";
import type { ProviderBank, RefundState } from "../providers/connector";
import { isNubanAt } from "../providers/nuban";
import { describeFailure, isRefusal, queryRefund, refundBanksAt, retryRefundAt } from "../providers/refunding";
import { recordEvent } from "./events";
import { refundSettledInTx } from "./lifecycle";
import { nextCheckDelay, recordRefundState } from "./refund-states";
import { merchantRefund, standing, type RefundStanding } from "./refund-views";

const ACCOUNT_NUMBER = "must be the customer's 10-digit NUBAN account number";
const BANK_CODE = 'must be a bank code from the provider\'s bank list, e.g. "058"';

/** The REST body and the tRPC input (without the references). */
export const refundAccountInput = z
  .object({
    bankCode: z.string({ error: BANK_CODE }).regex(/^\d{3,6}$/, BANK_CODE),
    accountNumber: z.string({ error: ACCOUNT_NUMBER }).regex(/^\d{10}$/, ACCOUNT_NUMBER),
  })
  .strict();
export type RefundAccountInput = z.output<typeof refundAccountInput>;

function waitingForAccount(r: RefundRow): asserts r is RefundRow & { providerRefundId: string } {
  if (r.status !== "NEEDS_ATTENTION" || r.providerRefundId === null)
    throw new ApiError(
      "S15",
      `Only a refund that needs the customer's account takes one or can be given up; ${r.refundReference} is ${r.status}`,
    );
}

function unanswered(r: RefundRow, err: unknown): ApiError {
  return new ApiError("S502", `${r.provider} did not answer; the refund still needs the customer's account: try again`, [
    { field: `provider.${r.provider}`, message: describeFailure(err) },
  ]);
}

/** The banks the customer's account may be at, as the refund's provider lists them, by name (for the dashboard's form). */
export async function refundBanks(scope: Scope, paymentReference: string, refundReference: string) {
  const { r } = await merchantRefund(scope, paymentReference, refundReference);
  try {
    const banks = await refundBanksAt(r);
    return banks.map(({ code, name }) => ({ bankCode: code, bankName: name })).sort((a, b) => a.bankName.localeCompare(b.bankName));
  } catch (err) {
    throw unanswered(r, err);
  }
}

/** What the provider says of the refund after it refused the account (it may no longer wait: paid or given up there). */
async function askAgain(r: RefundRow & { providerRefundId: string }): Promise<void> {
  try {
    const state = await queryRefund(r, r.providerRefundId);
    if (state) await recordRefundState(r.id, state);
  } catch (err) {
    log.warn({ refundId: r.id, err: describeFailure(err) }, "refund account refused; the refund could not be asked about");
  }
}

/** POST …/refunds/{refundReference}/account: the customer's account for a refund that needs one. */
export async function giveRefundAccount(
  scope: Scope,
  paymentReference: string,
  refundReference: string,
  input: RefundAccountInput,
  now = clock.now(),
): Promise<RefundStanding> {
  const { p, r } = await merchantRefund(scope, paymentReference, refundReference);
  waitingForAccount(r);
  let banks: ProviderBank[];
  try {
    banks = await refundBanksAt(r);
  } catch (err) {
    throw unanswered(r, err);
  }
  const bank = banks.find((b) => b.code === input.bankCode);
  if (!bank) throw invalidFields([{ field: "bankCode", message: `is not a bank ${r.provider} can pay a refund into` }]);
  const { accountNumber } = input;
  if (!isNubanAt(bank.code, accountNumber))
    throw invalidFields([{ field: "accountNumber", message: `is not a valid NUBAN account number at ${bank.name}` }]);
  let state: RefundState;
  try {
    state = await retryRefundAt(r, r.providerRefundId, { bank, accountNumber, currency: p.currency });
  } catch (err) {
    if (!isRefusal(err)) throw unanswered(r, err);
    await askAgain(r);
    throw new ApiError("S15", `${r.provider} refused the account: ${describeFailure(err)}`, [
      { field: "accountNumber", message: `refused by ${r.provider}` },
    ]);
  }
  const moved = await write(async (tx) => {
    const [fresh] = await tx.select().from(refunds).where(eq(refunds.id, r.id));
    const [payment] = await tx.select().from(payments).where(eq(payments.id, r.paymentId));
    if (!fresh || !payment || fresh.status !== "NEEDS_ATTENTION") return fresh ?? r;
    const checks = fresh.checks + 1;
    const pending: RefundRow = { ...fresh, status: "PENDING", checks, nextCheckAt: now + nextCheckDelay(checks), updatedAt: now };
    await tx.update(refunds).set(pending).where(eq(refunds.id, r.id));
    // The account is kept on the timeline only as its bank and last four digits.
    await recordEvent(tx, payment, "refund_account_given", now, {
      amountKobo: r.amountKobo,
      detail: { refundReference, bankName: bank.name, accountEnding: accountNumber.slice(-4) },
    });
    return pending;
  });
  if (state.state !== "pending") await recordRefundState(r.id, state, now);
  return standing("Refund sent again to the customer's account", moved);
}

/** POST …/refunds/{refundReference}/cancel: the merchant gives up a refund that needs the customer's account. */
export async function cancelRefund(
  scope: Scope,
  paymentReference: string,
  refundReference: string,
  now = clock.now(),
): Promise<RefundStanding> {
  const { r } = await merchantRefund(scope, paymentReference, refundReference);
  // Checked and moved in one transaction: an account given meanwhile (PENDING again) is never failed here.
  const outcome = await write(async (tx) => {
    const [fresh] = await tx.select().from(refunds).where(eq(refunds.id, r.id));
    const [p] = await tx.select().from(payments).where(eq(payments.id, r.paymentId));
    if (!fresh || !p || fresh.status !== "NEEDS_ATTENTION") return { cancelled: false, refund: fresh ?? r };
    const failed: RefundRow = {
      ...fresh,
      status: "FAILED",
      failureReason: "given up by the merchant while it needed the customer's account",
      nextCheckAt: null,
      updatedAt: now,
      settledAt: now,
    };
    await tx.update(refunds).set(failed).where(eq(refunds.id, r.id));
    await refundSettledInTx(tx, p, failed, now);
    return { cancelled: true, refund: failed };
  });
  if (!outcome.cancelled) waitingForAccount(outcome.refund);
  return standing("Refund given up", outcome.refund);
}
