// An event already in the outbox and fanned out, for tests that write its deliveries themselves (claims, backlogs).
import type { Tx } from "../../db/client";
import { outbox } from "../../db/schema";

/** A payment.successful event of `paymentId`, fanned out at once; answers its outbox id. */
export async function fannedOutEvent(tx: Tx, e: { eventId: string; paymentId: number; merchantId: string }): Promise<number> {
  const [event] = await tx
    .insert(outbox)
    .values({
      ...e,
      mode: "test",
      event: "payment.successful",
      sequence: 2,
      payloadJson: "{}",
      createdAt: 1,
      fannedOutAt: 1,
    })
    .returning({ id: outbox.id });
  if (!event) throw new Error(`outbox event ${e.eventId} was not written`);
  return event.id;
}
