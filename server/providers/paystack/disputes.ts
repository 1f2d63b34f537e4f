// Paystack's disputes in Owo's words. A dispute resolved against the merchant takes money back twice over in
// Paystack's records: its `charge.dispute.resolve` webhook (refund_amount, the transaction `reversed`;
// https://paystack.com/docs/payments/webhooks/, "Dispute events") and the refund Paystack makes of refund_amount
// ("The amount to refund", DisputeResolve in PaystackOSS/openapi dist/paystack.yaml), which names its `dispute`
// (RefundListResponseArray.dispute) and the settlement that deducted it. Both readings carry one key, the dispute's
// id, so the money is booked once whichever Owo sees first. Verify says only that the transaction was `reversed`;
// what was taken back, and under which dispute, Owo reads from List Disputes (GET /dispute?transaction=<id>,
// operationId dispute_list in PaystackOSS/openapi dist/paystack.yaml, DisputeListResponseArray), under the same key.
import { z } from "zod";
import type { NoticeReading, ProviderPaymentState } from "../connector";
import { everyPage, kobo, success, transaction, unusable, type Get } from "./wire";

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

// A dispute as List Disputes shows it: its status (`resolved` once closed) and how (DisputeResolve.resolution:
// merchant-accepted, declined — the merchant's evidence won — or Paystack's own auto-accepted).
const listedDispute = z.object({
  id: z.union([z.number().int(), z.string()]).transform(String),
  refund_amount: z.lazy(() => kobo.nullish()),
  status: z.string(),
  resolution: z.string().nullish(),
});

/** The chargebacks of the transaction verify answered `reversed` (its `data.id`): each dispute resolved against the
 * merchant, what it took back under its own key. None listed: the record says only that it was reversed. */
export async function chargebacksOf(get: Get, verified: unknown): Promise<ProviderPaymentState["chargebacks"]> {
  const t = success(z.object({ id: z.number().int() })).safeParse(verified);
  if (!t.success) throw unusable("GET /transaction/verify", "a transaction id", verified);
  const listed = await everyPage(get, "/dispute", `/dispute?transaction=${t.data.data.id}`, listedDispute);
  const lost = listed.flatMap(({ id, status, resolution, refund_amount: taken }) =>
    status === "resolved" && resolution !== "declined" && taken ? [{ deduction: disputeDeduction(id), amountKobo: taken }] : [],
  );
  return lost.length > 0 ? lost : undefined;
}
