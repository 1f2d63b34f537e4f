// Issue 23's posting cost, read off the credit slices (bench/credit-slices.ts; a slice is a leg here): posting on and
// off alternate on, off, off, on, …, so each two neighbouring legs are one reading of what posting costs, taken close
// together in time. The figure is the median of the readings, and the interval it lies in says how sure that is: a
// shared machine makes the readings wide, so a bound that falls inside the interval is said to (bench/README.md,
// "Ledger postings").
import type { Dialect } from "./options";
import type { LoadResult } from "./load-result";

/** One measured leg: credits a second, CPU a credit (Owo + its database server, ms) and the machine's load meanwhile. */
export type CreditLeg = { posting: boolean; rps: number; cpuMs: number | null; load: number };

export type PostingCost = {
  kind: "posting-cost";
  scenario: string;
  database?: Dialect;
  /** How long a leg lasted (a slice, on average). */
  legSeconds: number;
  legs: CreditLeg[];
};

/** A reading of one pair of neighbouring legs: 1 − credits/s with posting ÷ without, and CPU a credit with ÷ without − 1. */
export type PairReading = { rate: number; cpu: number | null };

/** CPU a request, ms: Owo's processes and PostgreSQL's (SQLite runs inside Owo), over the leg's requests a second. */
export function cpuMsPerRequest(l: LoadResult): number | null {
  const cores = Object.entries(l.cpu ?? {}).reduce((n, [party, v]) => (party === "owo" || party === "postgres" ? n + v : n), 0);
  return l.rps > 0 && cores > 0 ? (cores * 1000) / l.rps : null;
}

export function creditLeg(posting: boolean, l: LoadResult, load: number): CreditLeg {
  return { posting, rps: l.rps, cpuMs: cpuMsPerRequest(l), load };
}

/** Legs 1–2, 3–4, …: each pair has one leg with posting and one without (the order on, off, off, on repeated). */
export function pairReadings(legs: CreditLeg[]): PairReading[] {
  const out: PairReading[] = [];
  for (let k = 0; k + 1 < legs.length; k += 2) {
    const pair = [legs[k], legs[k + 1]];
    const on = pair.find((l) => l?.posting);
    const off = pair.find((l) => l && !l.posting);
    if (!on || !off || off.rps <= 0) continue;
    out.push({
      rate: 1 - on.rps / off.rps,
      cpu: on.cpuMs !== null && off.cpuMs !== null && off.cpuMs > 0 ? on.cpuMs / off.cpuMs - 1 : null,
    });
  }
  return out;
}

export function median(values: number[]): number | null {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const pct = (r: number) => `${(r * 100).toFixed(1)} %`;
const range = (values: number[], show: (v: number) => string) =>
  values.length ? `${show(Math.min(...values))} to ${show(Math.max(...values))}` : "none";

/**
 * Where the median of `values` lies, at 95 % or more: the order statistics k and n − k + 1 of the sorted values, k the
 * largest with P(Binomial(n, ½) < k) ≤ 2.5 % (distribution-free: the pairs need not be normal, only independent). Below
 * six values no such k exists, and the whole range stands in for the interval.
 */
export function medianInterval(values: number[]): [low: number, high: number] | null {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return null;
  let k = 1;
  let below = 0; // P(Binomial(n, ½) < k), summed term by term: C(n, j) / 2^n
  for (let j = 0, term = 0.5 ** n; j < n; term = (term * (n - j)) / (j + 1), j++) {
    below += term;
    if (below > 0.025) break;
    k = j + 1;
  }
  return [sorted[k - 1] ?? 0, sorted[n - k] ?? 0];
}

/**
 * The verdict on "posting may cost at most `bound`": the median pair's cost of credits a second, with the interval
 * the median lies in (medianInterval), and CPU a credit on both sides. Met when the whole interval is within the
 * bound, not met when it is all above it; when the bound falls inside it, the reading is inside its own noise and the
 * verdict is left open (null). (Until 2026-11-28 the interval was every pair's range: with a shared machine's ±15 % a
 * pair, no number of pairs could ever meet a bound.)
 */
export function postingCostVerdict(c: PostingCost, bound: number): { measured: string; met: boolean | null } | null {
  const pairs = pairReadings(c.legs);
  const rates = pairs.map((p) => p.rate);
  const rate = median(rates);
  const interval = medianInterval(rates);
  if (rate === null || interval === null) return null;
  const cpus = pairs.flatMap((p) => (p.cpu === null ? [] : [p.cpu]));
  const cpuOf = (posting: boolean) => median(c.legs.flatMap((l) => (l.posting === posting && l.cpuMs !== null ? [l.cpuMs] : [])));
  const [cpuOn, cpuOff, cpu] = [cpuOf(true), cpuOf(false), median(cpus)];
  const [low, high] = interval;
  const inside = low <= bound && high > bound;
  const loads = c.legs.map((l) => l.load);
  const measured = [
    `median ${pct(rate)} slower over ${pairs.length} pairs of ${c.legSeconds} s legs, 95 % interval ${pct(low)} to ${pct(high)} (pairs ${range(rates, pct)})`,
    `CPU a credit (Owo + database) ${cpuOn?.toFixed(2) ?? "?"} vs ${cpuOff?.toFixed(2) ?? "?"} ms, ${cpu === null ? "?" : `+${pct(cpu)}`} (pairs ${range(cpus, pct)})`,
    `load ${range(loads, (v) => v.toFixed(1))}`,
    ...(inside ? [`inside its own noise: the median's interval holds ${pct(bound)}`] : []),
  ].join("; ");
  return { measured, met: inside ? null : high <= bound };
}
