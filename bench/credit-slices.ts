// The books' posting cost read side by side (issue 23): two servers of one build on one database, one posting and one
// with posting off (OWO_BENCH_POSTING=off), both up for the whole run. The credits go to one and then the other in
// slices of a few seconds, the same number of credits each, every slice drained before the next starts. Restarting a
// server for each leg of ten seconds put the two legs of a pair 20–30 s apart, and this machine's speed drifts over a
// minute or two by ±15 %: that drift, not posting, made most of each pair's reading. Slices a few seconds apart see
// the same machine, and many of them cost less time than a few legs did.
import { Agent, request } from "node:http";
import { loadavg } from "node:os";
import { cpuMeter, type CpuParties } from "./cpu";
import { percentile } from "./load";
import type { LoadResult } from "./load-result";
import { creditLeg, pairReadings, type CreditLeg } from "./posting-cost";

/** One of the two servers: where its credits go, and whether it posts. */
export type SliceSide = { posting: boolean; url: string; token: string };

export type SliceRun = { legs: CreditLeg[]; results: Map<boolean, LoadResult[]>; sliceSeconds: number };

type Slice = { seconds: number; latencies: number[]; errors: number; firstFailure: string | null };

/**
 * One POST over a kept-alive connection of `agent`: its status and body. node:http rather than fetch: its agent holds
 * exactly the slice's connections, and the load client, which shares these two cores with Owo, spends less per request.
 */
function post(url: URL, headers: Record<string, string>, body: string, agent: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Pays `references` on one server, `connections` at a time, and waits for the last answer: the sandbox bank paying
 * each open payment once (API.md "Sandbox bank"); the bank's signed notice comes back to the same server, which credits
 * the payment (and, with the books on, posts its entry) before answering.
 */
async function slice(side: SliceSide, references: string[], connections: number, agent: Agent): Promise<Slice> {
  const latencies: number[] = [];
  let errors = 0;
  let firstFailure: string | null = null;
  let next = 0;
  const started = performance.now();
  const headers = { "content-type": "application/json", authorization: `Bearer ${side.token}` };
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let i = next++; i < references.length; i = next++) {
        const sent = performance.now();
        const url = new URL(`/api/v2/sandbox/payments/${encodeURIComponent(references[i] ?? "")}/simulate`, side.url);
        try {
          const res = await post(url, headers, '{"outcome":"pay"}', agent);
          if (res.status !== 200) {
            errors++;
            firstFailure ??= `${res.status} ${res.text.slice(0, 300)}`;
          }
        } catch (err) {
          errors++;
          firstFailure ??= String(err);
        }
        latencies.push(performance.now() - sent);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies, errors, firstFailure };
}

/** A slice as the results table reads a load: credits a second, latencies, errors, the cores each party used. */
function asLoad(scenario: string, s: Slice, connections: number, cpu: Record<string, number>): LoadResult {
  const sorted = Float64Array.from(s.latencies).sort();
  return {
    kind: "load",
    scenario,
    server: "owo",
    connections,
    requests: s.latencies.length,
    rps: s.latencies.length / s.seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    errors: s.errors,
    cpu,
  };
}

/** Credits of each side's warm-up slice: two a connection. */
const WARM_UP_PER_CONNECTION = 2;

/**
 * Runs `order` (on, off, off, on, …) as slices, taking references from `take` (each paid once), after one unmeasured
 * slice on each side. Each slice is what the server without posting paid in `sliceSeconds` during its warm-up, so both
 * sides pay the same credits. `parties`: whose CPU a credit costs (both servers and the database: the idle server's
 * callback worker delivers some of the other's callbacks, as two instances would).
 */
export async function creditSlices(
  sides: Record<"on" | "off", SliceSide>,
  order: boolean[],
  o: {
    sliceSeconds: number;
    connections: number;
    parties: CpuParties;
    take: (n: number) => Promise<string[]>;
    scenario: (posting: boolean) => string;
  },
): Promise<SliceRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.connections });
  const results = new Map<boolean, LoadResult[]>([
    [true, []],
    [false, []],
  ]);
  const legs: CreditLeg[] = [];
  try {
    const warmUp = WARM_UP_PER_CONNECTION * o.connections;
    await slice(sides.on, await o.take(warmUp), o.connections, agent);
    const calibration = await slice(sides.off, await o.take(warmUp), o.connections, agent);
    const perSlice = Math.max(warmUp, Math.round((warmUp / calibration.seconds) * o.sliceSeconds));
    console.log(
      `  ${perSlice} credits a slice (the server without posting paid ${(warmUp / calibration.seconds).toFixed(0)} a second warming up)`,
    );
    for (const posting of order) {
      const references = await o.take(perSlice);
      const meter = cpuMeter(o.parties);
      const s = await slice(posting ? sides.on : sides.off, references, o.connections, agent);
      const load = asLoad(o.scenario(posting), s, o.connections, meter.stop());
      if (s.errors > 0) console.log(`  ${s.errors} credits failed with posting ${posting ? "on" : "off"}; the first: ${s.firstFailure}`);
      results.get(posting)?.push(load);
      legs.push(creditLeg(posting, load, loadavg()[0] ?? 0));
      const [reading] = pairReadings(legs.slice(-2));
      if (legs.length % 2 === 0 && reading)
        console.log(
          `  pair ${legs.length / 2}: posting ${(reading.rate * 100).toFixed(1)} % slower, CPU a credit ${reading.cpu === null ? "?" : `${(reading.cpu * 100).toFixed(1)} %`} more`,
        );
    }
    const loads = [...results.values()].flat();
    // What a slice lasted once warm (the calibration ran cold, so usually less than asked), for the verdict's line.
    const sliceSeconds = loads.reduce((sum, l) => sum + l.requests / l.rps, 0) / Math.max(1, loads.length);
    return { legs, results, sliceSeconds: Math.round(sliceSeconds * 10) / 10 };
  } finally {
    agent.destroy();
  }
}
