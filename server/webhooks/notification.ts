// What one delivery attempt sends: the notificationItems body (the same bytes every time) and its signature headers.
import type { Mode } from "../../db/schema";
import { signatureHeaders, type SignatureHeaders } from "./signing";
import { liveSigningSecrets, revealOrCreateSigningSecret } from "./signing-secrets";
import { clock } from "../clock";
import { eventTypeOf } from "../settlements/events";
import { scopeOf } from "../merchants/scope";

export type OutboxEvent = { eventId: string; event: string; createdAt: number; payloadJson: string };

/**
 * Spliced rather than re-serialised: `payloadJson` holds the bytes written with the state change,
 * so every destination and every retry of the event carries exactly the same body.
 */
export function notificationBody(e: OutboxEvent): string {
  const eventDate = new Date(e.createdAt).toISOString();
  return `{"notificationItems":[{"notificationRequestItem":{"eventType":${JSON.stringify(eventTypeOf(e.event))},"eventId":${JSON.stringify(e.eventId)},"eventDate":${JSON.stringify(eventDate)},"data":${e.payloadJson}}}]}`;
}

/** Signed with every live secret of the merchant's mode; a mode with none yet gets its first now. */
export async function notificationHeaders(
  e: OutboxEvent & { merchantId: string; mode: Mode },
  body: string,
  now = clock.now(),
): Promise<SignatureHeaders> {
  let secrets = await liveSigningSecrets(scopeOf(e), now);
  if (secrets.length === 0) {
    await revealOrCreateSigningSecret(scopeOf(e));
    secrets = await liveSigningSecrets(scopeOf(e), now);
  }
  return signatureHeaders({ eventId: e.eventId, timestamp: Math.floor(now / 1000), body, secrets });
}
