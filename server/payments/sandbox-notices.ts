// The sandbox bank's notices, once its connector has read them (providers/sandbox/notices.ts): money goes to the state
// machine, each notice one credit or decline judged by its arrival; a refund to the refund follower, as any provider's.
import { clock } from "../clock";
import { readSandboxNotice } from "../providers/sandbox/notices";
import { applyBankNotice, type NoticeOutcome } from "./lifecycle";
import { REFUND_NOTICE_ANSWERS, refundNoticed } from "./refund-follower";

/** What became of a notice: the payment it moved (money), or the refund it was about. */
export type SandboxNoticeOutcome = { message: string; payment: NoticeOutcome["payment"] | null };

export async function receiveSandboxNotice(signature: string | undefined, raw: Buffer, now = clock.now()): Promise<SandboxNoticeOutcome> {
  const reading = readSandboxNotice(signature, raw, now);
  if (reading.kind === "refund") {
    const { result } = await refundNoticed({ provider: "sandbox", providerAccountId: null }, reading);
    return { message: REFUND_NOTICE_ANSWERS[result], payment: null };
  }
  const outcome = await applyBankNotice(reading, now);
  return { message: outcome.applied ? "Notice applied" : "Duplicate notice; applied before", payment: outcome.payment };
}
