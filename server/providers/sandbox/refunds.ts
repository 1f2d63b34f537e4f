// The sandbox bank pays refunds back within seconds: it accepts a refund at once, settles it SANDBOX_REFUND_MS later,
// and then tells Owo with a signed refund notice over HTTP, exactly like its payment notices. Its record of a refund
// is the refund id itself (when it was accepted, and whether the customer's bank takes it), so a query answers the
// same after a restart, and a notice lost with a restarted process is found by the follower's query.
// A refund whose reason contains "[decline]" is refused by the customer's bank: it ends FAILED. One whose reason contains
// "[lost notice]" is paid back, but the bank's notice never reaches Owo: only the follower's query settles it.
import { randomBytes } from "node:crypto";
import { clock } from "../../clock";
import { log } from "../../logger";
import type { RefundRequest, RefundState } from "../connector";
import { sendNotice } from "./bank";
import { recordRefund } from "./books";

export const SANDBOX_REFUND_MS = 1_000;
export const SANDBOX_DECLINE_MARK = "[decline]";
export const SANDBOX_LOST_NOTICE_MARK = "[lost notice]";

const REFUND_ID = /^sbr_(\d{13})_([pd])_[0-9a-f]{16}$/;

function stateOf(refundId: string, now: number): RefundState {
  const m = REFUND_ID.exec(refundId);
  if (!m) throw new Error(`sandbox bank: no refund ${refundId}`);
  if (now < Number(m[1]) + SANDBOX_REFUND_MS) return { refundId, state: "pending" };
  return { refundId, state: m[2] === "d" ? "failed" : "processed" };
}

export async function sandboxRefund(req: RefundRequest): Promise<RefundState> {
  const declined = req.reason.toLowerCase().includes(SANDBOX_DECLINE_MARK);
  const noticeLost = req.reason.toLowerCase().includes(SANDBOX_LOST_NOTICE_MARK);
  const refundId = `sbr_${clock.now()}_${declined ? "d" : "p"}_${randomBytes(8).toString("hex")}`;
  await recordRefund({ refundId, reference: req.reference, amountKobo: req.amountKobo, paidAt: clock.now() + SANDBOX_REFUND_MS, declined });
  setTimeout(() => {
    const settled = stateOf(refundId, clock.now());
    // Still pending: the clock was moved back, and the follower's query settles it later.
    if (settled.state !== "processed" && settled.state !== "failed") return;
    if (noticeLost) return;
    const notice = { transactionId: `sbx_${randomBytes(10).toString("hex")}`, type: "refund" as const, refundId, state: settled.state };
    sendNotice(notice).catch((err: unknown) =>
      log.warn({ err, refundId }, "sandbox bank: refund notice not delivered; Owo's query will find it"),
    );
    // A little after the settlement time, so the bank's own record already reads settled when Owo asks.
  }, SANDBOX_REFUND_MS + 50).unref();
  return { refundId, state: "pending" };
}

export async function sandboxQueryRefund(refundId: string): Promise<RefundState> {
  return stateOf(refundId, clock.now());
}
