// The sandbox bank's customer side: it pays, under- or over-pays, or declines, by sending Owo a signed notice over HTTP.
import { randomBytes } from "node:crypto";
import { clock } from "../../clock";
import { formatKobo } from "../../money";
import { settings } from "../../settings";
import type { NoticeTarget } from "../connector";
import { recordSentCredit } from "./books";
import { SIGNATURE_HEADER, signNotice } from "./notice-signature";
import type { SandboxNotice } from "./notices";

export const SANDBOX_NOTICE_PATH = "/api/v2/providers/sandbox/notices";

/** A customer's money (or a declined debit) for an account or dial code the bank issued. */
export type CustomerMove = {
  outcome: "pay" | "decline";
  amountKobo: number;
  target: NoticeTarget;
  senderName: string;
  /** The merchant's payment it is for, in the bank's own books (what it settles from). */
  merchantId: string;
  paymentReference: string;
  reference: string;
};

/** The bank books a credit as sent before telling Owo, then tells Owo exactly as it would any bank's customer. */
export async function moveCustomerMoney(move: CustomerMove): Promise<void> {
  const notice: SandboxNotice = {
    transactionId: `sbx_${randomBytes(10).toString("hex")}`,
    type: move.outcome === "pay" ? "credit" : "decline",
    amount: formatKobo(move.outcome === "pay" ? move.amountKobo : 0),
    ...move.target,
    senderName: move.senderName,
    bankTime: new Date(clock.now()).toISOString(),
  };
  if (notice.type === "credit")
    await recordSentCredit({
      transactionId: notice.transactionId,
      merchantId: move.merchantId,
      paymentReference: move.paymentReference,
      reference: move.reference,
      amountKobo: move.amountKobo,
      sentAt: clock.now(),
    });
  await sendNotice(notice);
}

/** Exactly what a real bank would do: a signed POST to Owo's public inbound endpoint. */
export async function sendNotice(notice: SandboxNotice): Promise<void> {
  const body = JSON.stringify(notice);
  const res = await fetch(settings().publicUrl + SANDBOX_NOTICE_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signNotice(body, settings().sandboxBankSecret) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`sandbox bank: Owo answered ${res.status} to a notice: ${await res.text()}`);
}
