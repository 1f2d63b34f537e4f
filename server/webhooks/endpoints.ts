// Webhook endpoints: addresses besides each payment's callbackUrl that receive every event of a merchant's mode.
import { and, asc, eq, isNull } from "drizzle-orm";
import { db, write, type Db, type Tx } from "../../db/client";
import { webhookEndpoints, type Mode } from "../../db/schema";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { newId } from "../identifiers";
import { settings } from "../settings";
import { checkDestination } from "./address-guard";
import { cancelEndpointDeliveries } from "./deliveries";
import { clock } from "../clock";
import type { Scope } from "../merchants/scope";

// Every event is sent to every endpoint; a bound keeps one event's fan-out small.
export const MAX_ENDPOINTS = 20;
const MAX_URL = 2048;
const MAX_DESCRIPTION = 200;

export type EndpointView = {
  id: string;
  url: string;
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: number;
};

export type NewEndpoint = { url: string; description?: string };

const view = () => ({
  id: webhookEndpoints.id,
  url: webhookEndpoints.url,
  description: webhookEndpoints.description,
  enabled: webhookEndpoints.enabled,
  disabledReason: webhookEndpoints.disabledReason,
  createdAt: webhookEndpoints.createdAt,
});

function live({ merchantId, mode }: Scope) {
  return and(eq(webhookEndpoints.merchantId, merchantId), eq(webhookEndpoints.mode, mode), isNull(webhookEndpoints.deletedAt));
}

export async function listEndpoints({ merchantId, mode }: Scope): Promise<EndpointView[]> {
  return db()
    .select(view())
    .from(webhookEndpoints)
    .where(live({ merchantId, mode }))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

async function endpointIn(q: Db | Tx, merchantId: string, mode: Mode, endpointId: string): Promise<EndpointView> {
  const [found] = await q
    .select(view())
    .from(webhookEndpoints)
    .where(and(live({ merchantId, mode }), eq(webhookEndpoints.id, endpointId)));
  if (!found) throw new ApiError("S404", `No webhook endpoint ${endpointId} for this merchant`);
  return found;
}

/** The endpoint, if it is this merchant's, in this mode, and not deleted: anything else is "not found". */
export async function findEndpoint({ merchantId, mode }: Scope, endpointId: string): Promise<EndpointView> {
  return endpointIn(db(), merchantId, mode, endpointId);
}

export async function addEndpoint({ merchantId, mode }: Scope, input: NewEndpoint, now = clock.now()): Promise<EndpointView> {
  const url = input.url.trim();
  const description = (input.description ?? "").trim();
  const errors: FieldError[] = [];
  const destination = checkDestination(url, settings().allowPrivateCallbacks);
  if (url.length > MAX_URL) errors.push({ field: "url", message: `must be at most ${MAX_URL} characters` });
  else if (!destination.ok)
    errors.push({
      field: "url",
      message: `must be a public http(s) URL, e.g. https://shop.example.ng/owo/webhooks (${destination.reason})`,
    });
  if (description.length > MAX_DESCRIPTION) errors.push({ field: "description", message: `must be at most ${MAX_DESCRIPTION} characters` });
  if (errors.length) throw invalidFields(errors);
  return write(async (tx) => {
    const existing = await tx.select({ url: webhookEndpoints.url }).from(webhookEndpoints).where(live({ merchantId, mode }));
    if (existing.some((e) => e.url === url)) {
      throw new ApiError("S14", "This URL is already a webhook endpoint", [
        { field: "url", message: "is already an endpoint; enable it instead" },
      ]);
    }
    if (existing.length >= MAX_ENDPOINTS) {
      throw new ApiError("S5", "Invalid/Missing parameters = url", [
        { field: "url", message: `would exceed ${MAX_ENDPOINTS} endpoints; delete one first` },
      ]);
    }
    const row = { id: newId("we"), merchantId, mode, url, description, enabled: true, disabledReason: null, createdAt: now };
    await tx.insert(webhookEndpoints).values(row);
    return { id: row.id, url, description, enabled: true, disabledReason: null, createdAt: now };
  });
}

async function change({ merchantId, mode }: Scope, endpointId: string, apply: (tx: Tx) => void): Promise<EndpointView> {
  return write(async (tx) => {
    await endpointIn(tx, merchantId, mode, endpointId);
    apply(tx);
    return endpointIn(tx, merchantId, mode, endpointId);
  });
}

/** Stops sending to the endpoint; what was still queued for it is cancelled (it can be re-sent after enabling). */
export function disableEndpoint({ merchantId, mode }: Scope, endpointId: string, now = clock.now()): Promise<EndpointView> {
  return change({ merchantId, mode }, endpointId, async (tx) => {
    await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: "disabled by the merchant" })
      .where(eq(webhookEndpoints.id, endpointId));
    await cancelEndpointDeliveries(tx, endpointId, "the endpoint was disabled", now);
  });
}

export function enableEndpoint({ merchantId, mode }: Scope, endpointId: string): Promise<EndpointView> {
  return change({ merchantId, mode }, endpointId, async (tx) => {
    await tx.update(webhookEndpoints).set({ enabled: true, disabledReason: null }).where(eq(webhookEndpoints.id, endpointId));
  });
}

/** Soft: the row stays so its deliveries keep their history. */
export async function deleteEndpoint({ merchantId, mode }: Scope, endpointId: string, now = clock.now()): Promise<void> {
  await write(async (tx) => {
    await endpointIn(tx, merchantId, mode, endpointId);
    await tx.update(webhookEndpoints).set({ enabled: false, deletedAt: now }).where(eq(webhookEndpoints.id, endpointId));
    await cancelEndpointDeliveries(tx, endpointId, "the endpoint was deleted", now);
  });
}
