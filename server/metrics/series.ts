// The metrics this process counts itself (issue #27, docs/operations): one prom-client registry shared through
// globalThis, so Next's bundled copy of a service counts into the same series the front serves at /metrics.
// Services report through the small functions below; nothing else imports prom-client.
import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

function made() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const on = { registers: [registry] };
  return {
    registry,
    requests: new Counter({
      name: "owo_http_requests_total",
      help: "HTTP requests answered, by door (rest, trpc, page, probe, metrics), route template, method and status",
      labelNames: ["door", "route", "method", "status"] as const,
      ...on,
    }),
    requestSeconds: new Histogram({
      name: "owo_http_request_duration_seconds",
      help: "Time from a request's arrival to its last byte, by door and route template",
      labelNames: ["door", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ...on,
    }),
    initiations: new Counter({
      name: "owo_initiations_total",
      help: "Payment initiations by mode, channel, provider that issued it (none when none did) and outcome (issued, replayed, or the API error code)",
      labelNames: ["mode", "channel", "provider", "outcome"] as const,
      ...on,
    }),
    paymentEvents: new Counter({
      name: "owo_payment_events_total",
      help: "Payment timeline events written (state changes among them), by event and the payment's status after it",
      labelNames: ["event", "status"] as const,
      ...on,
    }),
    providerCalls: new Counter({
      name: "owo_provider_calls_total",
      help: "HTTP calls to a provider's API by provider, operation (method and path template) and outcome (ok, refused, unavailable, timeout)",
      labelNames: ["provider", "operation", "outcome"] as const,
      ...on,
    }),
    providerSeconds: new Histogram({
      name: "owo_provider_call_duration_seconds",
      help: "Time a provider took to answer one call (or to fail), by provider and operation",
      labelNames: ["provider", "operation"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10],
      ...on,
    }),
    callbackAttempts: new Counter({
      name: "owo_callback_attempts_total",
      help: "Callback delivery attempts this process made, by result (delivered, retry, gone)",
      labelNames: ["result"] as const,
      ...on,
    }),
  };
}

export type Series = ReturnType<typeof made>;
const holder = globalThis as unknown as { __owoMetrics?: Series };

export function series(): Series {
  holder.__owoMetrics ??= made();
  return holder.__owoMetrics;
}

/** A gauge read from the database at each scrape (from-database.ts); registered once on the shared registry. */
export function databaseGauge(name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void>): void {
  const { registry } = series();
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this);
    },
  });
}

export function countRequest(door: string, route: string, method: string, status: number, seconds: number): void {
  const s = series();
  s.requests.inc({ door, route, method, status: String(status) });
  s.requestSeconds.observe({ door, route }, seconds);
}

export function countInitiation(mode: string, channel: string, provider: string, outcome: string): void {
  series().initiations.inc({ mode, channel, provider, outcome });
}

export function countPaymentEvent(event: string, status: string): void {
  series().paymentEvents.inc({ event, status });
}

export function countProviderCall(provider: string, operation: string, outcome: string, seconds: number): void {
  const s = series();
  s.providerCalls.inc({ provider, operation, outcome });
  s.providerSeconds.observe({ provider, operation }, seconds);
}

export function countCallbackAttempt(result: "delivered" | "retry" | "gone"): void {
  series().callbackAttempts.inc({ result });
}
