// SeerBit's notices in Owo's words (NoticeReading). Unsigned, so a reading only prompts a query; the contract test
// replays the notices SeerBit publishes (./fixtures).
import { z } from "zod";
import { NoticeRejected, type NoticeReading } from "../connector";
import { naira } from "./wire";

/** doc.seerbit.com "Structure of the Event Notification": one notificationRequestItem per notice. */
const notice = z.object({
  notificationItems: z
    .array(
      z.object({
        notificationRequestItem: z.object({
          eventType: z.string().min(1),
          eventId: z.string().min(1).optional(),
          eventDate: z.string().optional(),
          data: z.looseObject({
            reference: z.string().min(1).optional(),
            paymentReference: z.string().min(1).optional(),
            /** A refund event names the refunded transaction so (the page's "Refund Event"). */
            transactionRef: z.string().min(1).optional(),
            amount: naira.optional(),
            code: z.string().optional(),
            currency: z.string().optional(),
          }),
        }),
      }),
    )
    .min(1),
});

/**
 * A SeerBit notice. It carries no signature a merchant can check, so reading it proves nothing: the core confirms
 * every reading by query() before money moves. A `transaction` event names Owo's reference (`data.reference`), its
 * `data.code` and `data.amount` (what the customer was charged, fee included). Refund events are ignored: SeerBit's
 * refund answer settles a refund, and no query could confirm its notice. Not this shape: rejected outright.
 */
export function readNoticeBody(body: unknown): NoticeReading {
  const n = notice.safeParse(body);
  const item = n.success ? n.data.notificationItems[0]?.notificationRequestItem : undefined;
  if (!item) throw new NoticeRejected("not a SeerBit notificationItems notice");
  const d = item.data;
  const reference = d.reference ?? d.paymentReference;
  const eventId = item.eventId ?? `${item.eventType}:${reference ?? "?"}:${d.code ?? "?"}`;
  const transaction = reference ?? d.transactionRef;
  const named = transaction ? { reference: transaction } : {};
  if (item.eventType !== "transaction")
    return { kind: "ignored", eventId, ...named, why: `Owo does not act on SeerBit's ${item.eventType} notices` };
  if (!reference || d.amount === undefined || (d.code !== "00" && d.code !== "S12"))
    return {
      kind: "ignored",
      eventId,
      ...named,
      why: `a transaction notice with code ${d.code ?? "none"} moves nothing: the query decides`,
    };
  return {
    kind: "payment",
    eventId,
    reference,
    outcome: d.code === "00" ? "paid" : "failed",
    amountKobo: d.amount,
    currency: d.currency ?? "NGN",
  };
}
