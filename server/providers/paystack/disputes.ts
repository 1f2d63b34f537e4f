// Paystack's disputes in Owo's words. A dispute resolved against the merchant takes money back twice over in
// Paystack's records: its `charge.dispute.resolve` webhook (refund_amount, the transaction `reversed`;
// https://paystack.com/docs/payments/webhooks/, "Dispute events") and the refund Paystack makes of refund_amount
// ("The amount to refund", DisputeResolve in PaystackOSS/openapi dist/paystack.yaml), which names its `dispute`
// (RefundListResponseArray.dispute) and the settlement that deducted it. Both readings carry one key, the dispute's
// id, so the money is booked once whichever Owo sees first.
import { z } from "zod";
import type { NoticeReading } from "../connector";
import { kobo, transaction } from "./wire";

/** What a chargeback is booked under, from the webhook and from the settlement alike: the provider's dispute id. */
export function disputeDeduction(disputeId: string): string {
  return `dispute:${disputeId}`;
}

// ./notices.ts reads the charge.dispute.* events through this file.
const dispute = z.object({
  id: z.union([z.number().int(), z.string()]).transform(String),
  refund_amount: z.lazy(() => kobo.nullish()),
  currency: z.string(),
  resolution: z.string().nullish(),
  transaction: z.lazy(() => transaction),
});

/** charge.dispute.create, .remind and .resolve: only a resolution that reversed the transaction moves money. */
export function readDisputeEvent(name: string, data: unknown): NoticeReading {
  const d = dispute.safeParse(data);
  if (!d.success) return { kind: "ignored", eventId: `${name}:malformed`, why: `${name} without a readable dispute` };
  const { id, transaction: t, refund_amount: taken, resolution } = d.data;
  if (name !== "charge.dispute.resolve" || t.status !== "reversed" || !taken)
    return {
      kind: "ignored",
      eventId: `${name}:${id}`,
      reference: t.reference,
      why: `Paystack dispute ${id} on ${t.reference}: ${name === "charge.dispute.resolve" ? `resolved (${resolution ?? "?"}) without taking money back` : "open; Owo books it if Paystack resolves it against the merchant"}`,
    };
  return {
    kind: "payment",
    eventId: `${name}:${id}`,
    reference: t.reference,
    providerReference: t.reference,
    outcome: "reversed",
    amountKobo: taken,
    currency: d.data.currency,
    deduction: disputeDeduction(id),
  };
}
