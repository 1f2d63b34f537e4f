// Paystack's webhook events in Owo's words (NoticeReading): charges and refunds here, disputes in ./disputes.ts. Shapes
// from the samples on Paystack's pages (cited in ./connector.ts), replayed by the contract test.
import { z } from "zod";
import type { NoticeReading } from "../connector";
import { readDisputeEvent } from "./disputes";
import { kobo, transaction } from "./wire";

const event = z.object({ event: z.string(), data: z.record(z.string(), z.unknown()) });
const refundEvent = z.object({
  status: z.string(),
  transaction_reference: z.string().min(1),
  refund_reference: z.string().nullish(),
  amount: kobo,
  currency: z.string(),
  id: z.union([z.number().int(), z.string()]).transform(String).optional(),
});
const transferRejected = z.object({
  bank_transfer: z.object({
    amount: kobo,
    message: z.string(),
    message_type: z.string(),
    transaction_id: z.union([z.string(), z.number()]).transform(String),
  }),
});

/**
 * A webhook body whose signature has already been checked. Paystack events carry no event id of their own, so the
 * dedupe key is built from what identifies the occurrence: the transaction id for a charge, the transaction and
 * refund for a refund. Refund events name the transaction (`transaction_reference`) and the amount, not the
 * refund's id, so the reading carries those for the core to find the refund by.
 */
export function readWebhook(body: unknown): NoticeReading {
  const e = event.safeParse(body);
  if (!e.success) return { kind: "ignored", eventId: "malformed", why: "not a Paystack event (no event or data)" };
  const name = e.data.event;
  if (name === "charge.success") {
    const t = transaction.safeParse(e.data.data);
    if (!t.success) return { kind: "ignored", eventId: `${name}:malformed`, why: "charge.success without a readable transaction" };
    const at = t.data.paid_at ?? t.data.paidAt ?? undefined;
    return {
      kind: "payment",
      eventId: `${name}:${t.data.id}`,
      reference: t.data.reference,
      providerReference: t.data.reference,
      outcome: t.data.status === "success" ? "paid" : "failed",
      amountKobo: t.data.amount,
      currency: t.data.currency,
      ...(at ? { at } : {}),
    };
  }
  const refundStates = { "refund.processed": "processed", "refund.failed": "failed", "refund.needs-attention": "needs_attention" } as const;
  if (name in refundStates) {
    const r = refundEvent.safeParse(e.data.data);
    if (!r.success) return { kind: "ignored", eventId: `${name}:malformed`, why: `${name} without a readable refund` };
    const d = r.data;
    return {
      kind: "refund",
      eventId: `${name}:${d.transaction_reference}:${d.id ?? d.refund_reference ?? d.amount}`,
      ...(d.id ? { refundId: d.id } : {}),
      providerReference: d.transaction_reference,
      reference: d.transaction_reference,
      amountKobo: d.amount,
      state: refundStates[name as keyof typeof refundStates],
    };
  }
  if (name.startsWith("charge.dispute.")) return readDisputeEvent(name, e.data.data);
  if (name === "bank.transfer.rejected") {
    const r = transferRejected.safeParse(e.data.data);
    const t = r.success ? r.data.bank_transfer : undefined;
    return {
      kind: "ignored",
      eventId: `${name}:${t?.transaction_id ?? "malformed"}`,
      why: t
        ? `Paystack rejected a transfer of ${t.amount} kobo (${t.message_type}: ${t.message}) and returns it to the sender itself`
        : "bank.transfer.rejected without a readable transfer",
    };
  }
  const reference = e.data.data.reference;
  return {
    kind: "ignored",
    eventId: `${name}:${String(e.data.data.id ?? reference ?? "")}`,
    ...(typeof reference === "string" && reference !== "" ? { reference } : {}),
    why: `Owo does not act on Paystack's ${name}`,
  };
}
