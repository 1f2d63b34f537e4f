// Flutterwave's webhooks in Owo's words (NoticeReading), once ./signature.ts has proven them. Written from
// https://developer.flutterwave.com/docs/webhooks; the contract test replays its samples.
import { parseNairaAnswer } from "../../money";
import type { NoticeReading } from "../connector";
import { record, text } from "./wire";

/** A webhook body whose `verif-hash` already matched. Flutterwave sends no event id: the transaction id and its
 * status stand in (a retry or duplicate carries both unchanged; a later different outcome is a different event). */
export function readWebhook(body: unknown): NoticeReading {
  const b = record(body);
  const data = record(b?.data);
  const id = text(data?.id);
  if (!b || !data || !id) return { kind: "ignored", eventId: "flutterwave:unreadable", why: "webhook body without data.id" };
  const eventId = `flutterwave:${id}:${String(data.status)}`;
  const reference = text(data.tx_ref);
  const named = reference ? { reference } : {};
  if (b.event !== "charge.completed") return { kind: "ignored", eventId, ...named, why: `event ${String(b.event)} is not a charge` };
  const outcome = data.status === "successful" ? "paid" : data.status === "failed" ? "failed" : undefined;
  if (!outcome) return { kind: "ignored", eventId, ...named, why: `charge status ${String(data.status)} is not final` };
  // All the customer paid (charged_amount: the amount asked plus a fee the customer bore), as the record's chargedKobo.
  const amountKobo = parseNairaAnswer(data.charged_amount ?? data.amount);
  if (amountKobo === null || typeof data.currency !== "string")
    return { kind: "ignored", eventId, ...named, why: "charge without a readable amount and currency" };
  const providerReference = text(data.flw_ref);
  return {
    kind: "payment",
    eventId,
    ...named,
    ...(providerReference ? { providerReference } : {}),
    outcome,
    amountKobo,
    currency: data.currency,
  };
}
