// The sandbox bank's notices, once its connector has read them (providers/sandbox/notices.ts): money is read as the
// bank's record of the payment and applied by the one entry point any provider's record takes (provider-records.ts);
// a refund goes to the refund follower, as any provider's.
import { write, type Tx } from "../../db/client";
import { lockedForUpdate } from "../../db/functions";
import { payments, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import type { BankNotice, NoticeTarget } from "../providers/connector";
import { recordToldCredit } from "../providers/sandbox/books";
import { readSandboxNotice, recordAfter } from "../providers/sandbox/notices";
import { issuedFor } from "../providers/sandbox/numbers";
import type { MoveOptions } from "./lifecycle";
import { applyRecordInTx, type ProviderOutcome } from "./provider-records";
import { REFUND_NOTICE_ANSWERS, refundNoticed } from "./refund-follower";

/** What became of a notice: the payment it moved (money), or the refund it was about. */
export type SandboxNoticeOutcome = { message: string; payment: PaymentRow | null };

export async function receiveSandboxNotice(signature: string | undefined, raw: Buffer, now = clock.now()): Promise<SandboxNoticeOutcome> {
  const reading = readSandboxNotice(signature, raw, now);
  if (reading.kind === "refund") {
    const { result } = await refundNoticed({ provider: "sandbox", providerAccountId: null }, reading);
    return { message: REFUND_NOTICE_ANSWERS[result], payment: null };
  }
  // The bank books the credit it told Owo of before Owo applies it, as it does for the credits it sends itself (a
  // notice posted here with its secret is its notice too), so it settles every credit Owo holds from it.
  if (reading.kind === "credit") await recordToldCredit(reading, now);
  const outcome = await applyBankNotice(reading, now);
  return { message: outcome.applied ? "Notice applied" : "Duplicate notice; applied before", payment: outcome.payment };
}

/** The notice's payment, locked until commit. */
async function findTarget(tx: Tx, target: NoticeTarget): Promise<PaymentRow | undefined> {
  return (await lockedForUpdate(tx.select().from(payments).where(issuedFor(target))))[0];
}

/**
 * Applies a sandbox bank's notice exactly once (its transaction id is unique), after the answers only the sandbox
 * gives (S404 for a number it never issued, S5 for a decline of a transfer; its reader answers S5 for the amount).
 * Read committed on PostgreSQL: the payment is locked first (every decision is made on it as the last writer left
 * it), the notice's id is unique, and the books are joined last, so writers of one merchant wait for each other only
 * from the posting to commit.
 */
export async function applyBankNotice(notice: BankNotice, now = clock.now(), opts: MoveOptions = {}): Promise<ProviderOutcome> {
  return write(
    async (tx) => {
      const found = await findTarget(tx, notice.target);
      if (!found) throw new ApiError("S404", "No payment was issued for this account or dial code");
      if (notice.kind === "decline" && found.paymentType !== "USSD") {
        throw new ApiError("S5", "Invalid/Missing parameters = type", [{ field: "type", message: "decline applies to USSD debits only" }]);
      }
      const via = {
        provider: notice.provider,
        transactionId: notice.transactionId,
        amountKobo: notice.amountKobo,
        senderName: notice.senderName ?? null,
        bankTime: notice.bankTime ?? null,
      };
      const held = { receivedKobo: found.amountPaidKobo + found.amountToRefundKobo, feeKobo: found.feeKobo, currency: found.currency };
      const moved = await applyRecordInTx(tx, found, recordAfter(notice, held, now), via, now, opts);
      return { payment: moved ?? found, applied: moved !== null };
    },
    { isolation: "read committed" },
  );
}
