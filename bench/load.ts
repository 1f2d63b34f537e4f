// Load over loopback with autocannon: a short warm-up, then the measured run; every request may differ (fresh references).
// Several instances: one autocannon per instance, all at once, the connections split between them and the answers
// summed (requests) and pooled (latencies), as a load balancer spreading connections evenly would see them.
import autocannon, { type Request } from "autocannon";
import { cpuMeter, type CpuParties, type CpuUse } from "./cpu";
import type { LoadResult, Server } from "./report";

export type LoadSpec = {
  urls: string[];
  connections: number;
  seconds: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** Called once per request: a fresh body (new paymentReference) or path (another payment to verify). */
  vary?: () => Partial<Pick<Request, "path" | "body">>;
  /** The processes whose CPU the measured run accounts for. */
  cpu?: CpuParties;
  /** The database's own running totals (PostgreSQL: commits, rollbacks), read before and after the measured run. */
  counters?: () => Promise<Record<string, number>>;
};

const WARM_UP_SECONDS = 2;

/** `connections` split over `targets` as evenly as whole numbers allow (32 over 3: 11, 11, 10). */
export function splitConnections(connections: number, targets: number): number[] {
  return Array.from({ length: targets }, (_, i) => Math.floor(connections / targets) + (i < connections % targets ? 1 : 0));
}

/** The `p`-th percentile (0–100) of latencies in ms, nearest rank, to the whole millisecond as autocannon reports. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank] ?? 0);
}

type Fired = {
  requests: number;
  rps: number;
  errors: number;
  timeouts: number;
  latencies: Float64Array;
  firstFailure: string | null;
  cpu: CpuUse | undefined;
  perSecond: Record<string, number> | undefined;
};

/** PostgreSQL's backends report their counts at most once a second: the reading after a run waits for the last report. */
const COUNTERS_SETTLE_MS = 1_200;

async function fire(spec: LoadSpec, seconds: number, measured: boolean): Promise<Fired> {
  let firstFailure: string | null = null;
  const latencies: number[] = [];
  const countersBefore = measured && spec.counters ? await spec.counters() : null;
  const meter = measured && spec.cpu ? cpuMeter(spec.cpu) : null;
  const started = process.hrtime.bigint();
  const shares = splitConnections(spec.connections, spec.urls.length);
  const results = await Promise.all(
    spec.urls.map((url, i) => {
      const run = autocannon({
        url,
        connections: shares[i] ?? 1,
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
      run.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
      return run;
    }),
  );
  const cpu = meter?.stop();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  let perSecond: Record<string, number> | undefined;
  if (countersBefore && spec.counters) {
    await new Promise((r) => setTimeout(r, COUNTERS_SETTLE_MS));
    const after = await spec.counters();
    perSecond = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, (v - (countersBefore[k] ?? 0)) / elapsed]));
  }
  return {
    perSecond,
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    rps: results.reduce((n, r) => n + r.requests.total / r.duration, 0),
    errors: results.reduce((n, r) => n + r.errors + r.non2xx, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
    latencies: Float64Array.from(latencies).sort(),
    firstFailure,
    cpu,
  };
}

export async function measure(scenario: string, server: Server, spec: LoadSpec, compareWith?: string): Promise<LoadResult> {
  await fire(spec, WARM_UP_SECONDS, false);
  const f = await fire(spec, spec.seconds, true);
  const measured: LoadResult = {
    kind: "load",
    scenario,
    server,
    connections: spec.connections,
    requests: f.requests,
    rps: f.rps,
    p50: percentile(f.latencies, 50),
    p90: percentile(f.latencies, 90),
    p99: percentile(f.latencies, 99),
    errors: f.errors,
    compareWith,
    instances: spec.urls.length,
    cpu: f.cpu,
    databasePerSecond: f.perSecond,
  };
  const failure = f.errors > 0 ? `  first failure: ${f.firstFailure ?? `${f.errors} socket errors, ${f.timeouts} timeouts`}` : "";
  const cores = f.cpu
    ? `  cores ${Object.entries(f.cpu)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ")}`
    : "";
  const perSecond = f.perSecond
    ? `  per s ${Object.entries(f.perSecond)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(", ")}`
    : "";
  const who = spec.urls.length > 1 ? `${server}×${spec.urls.length}` : server;
  console.log(
    `  ${who.padEnd(7)} ${scenario.padEnd(34)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p90 ${measured.p90} ms  p99 ${measured.p99} ms  errors ${f.errors}${failure}${cores}${perSecond}`,
  );
  return measured;
}
