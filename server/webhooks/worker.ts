// The delivery worker: fans out new events, claims due deliveries and sends them, a few per host and a bounded number overall.
import { countCallbackAttempt } from "../metrics/series";
import { log } from "../logger";
import { drainInFlight, leaseHeartbeat, pollingLoop, type PollingLoop } from "../recurring";
import { settings } from "../settings";
import { claimDue, hostKey, recordAttempt, releaseLeases, renewLeases, type ClaimedDelivery } from "./deliveries";
import { fanOutPending } from "./fan-out";
import { forwardedRequest } from "./forwards";
import { notificationBody, notificationHeaders } from "./notification";
import { postSigned, type AttemptResult } from "./sender";

export type WorkerOptions = {
  leaseMs: number;
  backoffScale: number;
  allowPrivate: boolean;
  /** Attempts in flight at once, over all hosts. */
  maxInFlight?: number;
  /** Attempts in flight at once to one host, so one slow receiver cannot hold every slot. */
  maxPerHost?: number;
  pollMs?: number;
};

export type Worker = {
  /** Stops claiming, lets attempts in flight finish for up to `graceMs`, then hands back the leases of the rest. */
  stop: (graceMs?: number) => Promise<void>;
};

/** `ended`: the attempt is over, so no renewal may take its lease in any more (server/recurring.ts `leaseHeartbeat`). */
type InFlight = { claim: ClaimedDelivery; host: string; released: boolean; ended: boolean; done: Promise<void> };

function unsent(error: string): AttemptResult {
  return { statusCode: null, latencyMs: 0, responseSnippet: null, error, delivered: false, gone: false };
}

async function attempt(claim: ClaimedDelivery, allowPrivate: boolean): Promise<AttemptResult> {
  if (claim.destination === "forward") {
    let forwarded;
    try {
      forwarded = forwardedRequest(claim.payloadJson);
    } catch (err) {
      return unsent(`not sent: unreadable forward (${err instanceof Error ? err.message : String(err)})`);
    }
    return postSigned({ url: claim.url, ...forwarded, allowPrivate, asForwarded: true });
  }
  let headers: Record<string, string>;
  const body = notificationBody(claim);
  try {
    headers = await notificationHeaders(claim, body);
  } catch (err) {
    return unsent(`not sent: could not sign (${err instanceof Error ? err.message : String(err)})`);
  }
  return postSigned({ url: claim.url, headers, body, allowPrivate });
}

/** Starts a worker with the process's settings (OWO_WORKER_LEASE_SECONDS, OWO_WEBHOOK_BACKOFF_SCALE, …), overridable. */
export function startWorker(overrides: Partial<WorkerOptions> = {}): Worker {
  const s = settings();
  const options = {
    leaseMs: s.workerLeaseSeconds * 1000,
    backoffScale: s.webhookBackoffScale,
    allowPrivate: s.allowPrivateCallbacks,
    ...overrides,
  };
  const { leaseMs, backoffScale, allowPrivate, maxInFlight = 32, maxPerHost = 4, pollMs = 250 } = options;
  const inFlight = new Map<number, InFlight>();
  const perHost = new Map<string, number>();
  let polling: PollingLoop | null = null;

  const launch = (claim: ClaimedDelivery) => {
    const host = hostKey(claim.url);
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
    let hostFreed = false;
    // The host's slot is its own again once the attempt has its answer: recording it is Owo's database work, and a
    // busy host should not wait for that to hear its next callback.
    const freeHost = () => {
      if (hostFreed) return;
      hostFreed = true;
      const left = (perHost.get(host) ?? 1) - 1;
      if (left > 0) perHost.set(host, left);
      else perHost.delete(host);
      polling?.wake();
    };
    const entry: InFlight = { claim, host, released: false, ended: false, done: Promise.resolve() };
    entry.done = attempt(claim, allowPrivate)
      .then(async (result) => {
        entry.ended = true;
        freeHost();
        countCallbackAttempt(result.delivered ? "delivered" : result.gone ? "gone" : "retry");
        await heartbeat.settled();
        if (!entry.released) await recordAttempt(entry.claim, result, backoffScale);
      })
      .catch((err: unknown) => log.error({ err, deliveryId: claim.id }, "could not record a callback attempt"))
      .finally(() => {
        inFlight.delete(claim.id);
        freeHost();
        polling?.wake();
      });
    inFlight.set(claim.id, entry);
  };

  // Claimed first, so the attempts start while the new events are fanned out; what that creates is claimed next tick, at once.
  const tick = async () => {
    const claims = await claimDue({ free: maxInFlight - inFlight.size, freeForHost: (h) => maxPerHost - (perHost.get(h) ?? 0) }, leaseMs);
    for (const claim of claims) launch(claim);
    if ((await fanOutPending()) > 0) polling?.wake();
  };

  // A live worker keeps its leases, so an attempt may take its full 15 s even under a short lease;
  // only a worker that died (or stalled) lets its deliveries go to another.
  const heartbeat = leaseHeartbeat(Math.max(50, Math.floor(leaseMs / 3)), "callback", async () => {
    const held = [...inFlight.values()]
      .filter((e) => !e.released && !e.ended)
      .map((e) => ({ id: e.claim.id, leaseUntil: e.claim.leaseUntil }));
    for (const [id, leaseUntil] of await renewLeases(held, leaseMs)) {
      const entry = inFlight.get(id);
      if (entry && leaseUntil !== null) entry.claim = { ...entry.claim, leaseUntil };
    }
  });

  polling = pollingLoop(pollMs, "callback worker", tick);

  return {
    stop: async (graceMs = 5000) => {
      await polling?.stop();
      const left = await drainInFlight(inFlight, graceMs);
      await heartbeat.stop();
      await releaseLeases(left.map((e) => ({ id: e.claim.id, leaseUntil: e.claim.leaseUntil })));
    },
  };
}
