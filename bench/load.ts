// Load over loopback with autocannon: a short warm-up, then the measured run; every request may differ (fresh references).
import autocannon, { type Request } from "autocannon";
import type { LoadResult, Server } from "./report";

export type LoadSpec = {
  url: string;
  connections: number;
  seconds: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** Called once per request: a fresh body (new paymentReference) or path (another payment to verify). */
  vary?: () => Partial<Pick<Request, "path" | "body">>;
};

const WARM_UP_SECONDS = 2;

async function fire(spec: LoadSpec, seconds: number) {
  let firstFailure: string | null = null;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        headers: spec.headers,
        setupRequest: (req) => ({ ...req, ...spec.vary?.() }),
        onResponse: (status, body) => {
          if (status >= 300 && firstFailure === null) firstFailure = `${status} ${body.slice(0, 300)}`;
        },
      },
    ],
  });
  return { result, firstFailure };
}

export async function measure(scenario: string, server: Server, spec: LoadSpec, compareWith?: string): Promise<LoadResult> {
  await fire(spec, WARM_UP_SECONDS);
  const { result, firstFailure } = await fire(spec, spec.seconds);
  const errors = result.errors + result.non2xx;
  const measured: LoadResult = {
    kind: "load", scenario, server, connections: spec.connections, requests: result.requests.total,
    rps: result.requests.total / result.duration, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, errors, compareWith,
  };
  const failure = errors > 0 ? `  first failure: ${firstFailure ?? `${result.errors} socket errors, ${result.timeouts} timeouts`}` : "";
  console.log(`  ${server.padEnd(5)} ${scenario.padEnd(34)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p90 ${measured.p90} ms  p99 ${measured.p99} ms  errors ${errors}${failure}`);
  return measured;
}
