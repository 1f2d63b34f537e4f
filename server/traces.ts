// OpenTelemetry traces (issue #27), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: one server span per request named
// by its door's route template, with each provider call and each database transaction (db/client.ts) inside it, sent
// over OTLP/HTTP. Off, nothing here costs a request more than one boolean test.
import "server-only";
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "./logger";
import { routeOf } from "./metrics/request-names";

const tracer = trace.getTracer("owo");
let on = false;

export type Tracing = { stop: () => Promise<void> };

/** Starts the SDK for this process (`service` names it in the traces: owo, owo-worker); null when no endpoint is set. */
export async function startTracing(endpoint: string | null, service: string): Promise<Tracing | null> {
  if (!endpoint) return null;
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  const sdk = new NodeSDK({
    serviceName: service,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }),
    // Owo's own spans only: no automatic instrumentation patching modules, and no metrics or logs over OTLP
    // (metrics are Prometheus's, /metrics; logs are pino's JSON lines).
    instrumentations: [],
    logRecordProcessors: [],
  });
  sdk.start();
  on = true;
  log.info({ endpoint }, "sending traces over OTLP/HTTP");
  return {
    stop: async () => {
      on = false;
      await sdk.shutdown();
    },
  };
}

/** Runs `answer` inside the request's server span, ended (named by door and route) when the answer is done. */
export function inRequestSpan(req: IncomingMessage, res: ServerResponse, requestId: string, answer: () => Promise<void>): Promise<void> {
  if (!on) return answer();
  const method = req.method ?? "GET";
  const span = tracer.startSpan(method, {
    kind: SpanKind.SERVER,
    attributes: { "http.request.method": method, "owo.request_id": requestId },
  });
  res.once("close", () => {
    const { door, route } = routeOf(res);
    span.updateName(`${method} ${route}`);
    span.setAttributes({ "http.route": route, "owo.door": door, "http.response.status_code": res.statusCode });
    if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return context.with(trace.setSpan(context.active(), span), answer);
}

/** Runs `work` inside a child span of the current one; `work` may add attributes (an outcome) to it. */
export async function inSpan<T>(name: string, attributes: Attributes, work: (span: Span | null) => Promise<T>): Promise<T> {
  if (!on) return work(null);
  return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}
