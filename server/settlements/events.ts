// Events about no one payment (API.md "Reconciliation": settlement.paid, reconciliation.exception): one outbox row in
// the transaction of the change it announces, fanned out to the merchant's webhook endpoints only (no payment, so no
// callback URL), signed like every callback.
import { randomBytes } from "node:crypto";
import type { Tx } from "../../db/client";
import { outbox, type Mode, type SettlementRow } from "../../db/schema";
import { settlementView } from "./view";

export type MerchantEvent = {
  merchantId: string;
  mode: Mode;
  event: "settlement.paid" | "reconciliation.exception";
  data: Record<string, unknown>;
};

/** The notificationItems eventType each event travels under (payments' events are "transaction"). */
export function eventTypeOf(event: string): string {
  if (event.startsWith("settlement.")) return "settlement";
  if (event.startsWith("reconciliation.")) return "reconciliation";
  return "transaction";
}

export async function publishEvent(tx: Tx, e: MerchantEvent, now: number): Promise<void> {
  await tx.insert(outbox).values({
    eventId: `evt_${randomBytes(12).toString("hex")}`,
    paymentId: null,
    merchantId: e.merchantId,
    mode: e.mode,
    event: e.event,
    // A payment's events are numbered so receivers can order them; these stand alone.
    sequence: 0,
    payloadJson: JSON.stringify({ event: e.event, ...e.data }),
    createdAt: now,
  });
}

/** settlement.paid: the settlement as GET /api/v2/settlements/{id} shows it, without its lines (they can be many). */
export async function publishSettlementPaid(tx: Tx, s: SettlementRow, now: number): Promise<void> {
  await publishEvent(tx, { merchantId: s.merchantId, mode: s.mode, event: "settlement.paid", data: settlementView(s) }, now);
}
