// What a bench run found, as a Markdown table (bench/results/latest.md); its latency chart is bench/latency-chart.ts.
import type { CpuUse } from "./cpu";
import type { LoadResult, Server } from "./load-result";
import type { Dialect } from "./options";
import type { PostingCost } from "./posting-cost";

export type { LoadResult, Server } from "./load-result";

export type ExportResult = {
  kind: "export";
  scenario: string;
  server: Server;
  rows: number;
  bytes: number;
  seconds: number;
  /** The server's resident memory just before the export, and its highest while serving it. */
  rssBeforeBytes: number | null;
  peakRssBytes: number | null;
  /** The highest of the server's child processes (the export's own) while it streamed; null when none ran. */
  exportProcessPeakBytes?: number | null;
  database?: Dialect;
};

export type Unavailable = { kind: "unavailable"; scenario: string; server: Server; reason: string; database?: Dialect };

/** Ledger entries the initiation scenarios left behind: API.md says initiation posts nothing. */
export type InitiationPostings = {
  kind: "initiation-postings";
  scenario: string;
  database?: Dialect;
  initiations: number;
  entries: number;
};

/** `processes` processes × `writers` writers over `merchants` merchants' books, each entry its own transaction. */
export type PostingRate = {
  kind: "postings";
  scenario: string;
  database?: Dialect;
  processes: number;
  writers: number;
  merchants: number;
  perSecond: number;
  /** The rest of the machine's busy cores meanwhile: other people's work on a shared machine. */
  machine: number;
  /** CPU an entry took: the writers' processes, and the database server's (PostgreSQL; 0 for SQLite, in-process). */
  writerMs: number;
  databaseMs: number;
};

export type Outcome = LoadResult | ExportResult | Unavailable | PostingRate | InitiationPostings | PostingCost;

export type RunInfo = {
  date: string;
  command: string;
  cores: number;
  cpu: string;
  node: string;
  mode: string;
  rows: string;
  loadBefore: string;
  loadAfter: string;
};

/**
 * Each scenario's least disturbed round (the highest req/s), in the order of the first round: on a shared machine,
 * noise only ever slows a run down.
 */
export function bestOfRounds(rounds: LoadResult[][]): LoadResult[] {
  const key = (r: LoadResult) => `${r.server}|${r.scenario}`;
  const best = new Map<string, LoadResult>();
  for (const r of rounds.flat()) {
    const seen = best.get(key(r));
    if (!seen || r.rps > seen.rps) best.set(key(r), r);
  }
  return (rounds[0] ?? []).flatMap((r) => best.get(key(r)) ?? []);
}

/** Owo ÷ floor, or null when there is nothing to divide by. */
export function ratio(owo: number, floor: number): number | null {
  return floor > 0 && Number.isFinite(owo) ? owo / floor : null;
}

export const instancesOf = (r: LoadResult) => r.instances ?? 1;

/** The floor run beside `r`: its scenario, on the same database with as many processes. */
export function floorOf(r: LoadResult, all: Outcome[]): LoadResult | undefined {
  return all.find(
    (o): o is LoadResult =>
      o.kind === "load" &&
      o.server === "floor" &&
      o.scenario === r.compareWith &&
      o.database === r.database &&
      instancesOf(o) === instancesOf(r),
  );
}

const perSecondSummary = (counts: Record<string, number> | undefined) =>
  counts
    ? Object.entries(counts)
        .map(([k, v]) => `${k} ${fixed(v)}`)
        .join(" · ")
    : "";

/**
 * "owo 0.93 (2.3 ms/req) · postgres 0.41 · client 0.35 · other 0.12": each party's cores, the server's CPU time per
 * request (steady when other work on the machine starves it, unlike req/s), and the rest of the machine's busy time.
 */
export function cpuSummary(cpu: CpuUse | undefined, rps = 0): string {
  if (!cpu) return "";
  const parties = Object.entries(cpu).filter(([k]) => k !== "machine");
  const ours = parties.reduce((n, [, v]) => n + v, 0);
  const other = cpu.machine === undefined ? [] : [["other", Math.max(0, cpu.machine - ours)] as const];
  const perRequest = (party: string, cores: number) =>
    rps > 0 && (party === "owo" || party === "floor") ? ` (${((cores * 1000) / rps).toFixed(2)} ms/req)` : "";
  return [...parties, ...other].map(([k, v]) => `${k} ${v.toFixed(2)}${perRequest(k, v)}`).join(" · ");
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);
const mb = (bytes: number | null) => (bytes === null ? "n/a" : `${fixed(bytes / 1048576)} MB`);

export function resultsTable(outcomes: Outcome[]): string {
  const lines = [
    "| scenario | db | server | inst | conns | req/s | p50 ms | p90 ms | p99 ms | errors | Owo ÷ floor (req/s) | cores used | PostgreSQL transactions/s |",
    "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|---|",
  ];
  for (const o of outcomes) {
    if (o.kind === "load") {
      const floor = floorOf(o, outcomes);
      const r = floor ? ratio(o.rps, floor.rps) : null;
      const cells = [
        o.scenario,
        o.database ?? "",
        o.server,
        instancesOf(o),
        o.connections,
        fixed(o.rps),
        o.p50,
        o.p90,
        o.p99,
        o.errors,
        r === null ? "" : `${fixed(r * 100)} %`,
        cpuSummary(o.cpu, o.rps),
        perSecondSummary(o.databasePerSecond),
      ];
      lines.push(`| ${cells.join(" | ")} |`);
    } else if (o.kind === "unavailable") {
      lines.push(`| ${o.scenario} | ${o.database ?? ""} | ${o.server} | | | not available: ${o.reason} | | | | | | | |`);
    }
  }
  const scaling = scalingTable(outcomes);
  if (scaling) lines.push("", scaling);
  const exports = outcomes.filter((o): o is ExportResult => o.kind === "export");
  if (exports.length) {
    lines.push(
      "",
      "| export | db | rows | size | total time | rows/s | server RSS before | server peak RSS | export process peak RSS | all Owo processes, at most |",
      "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    );
    for (const e of exports) {
      lines.push(
        `| ${e.scenario} | ${e.database ?? ""} | ${e.rows} | ${mb(e.bytes)} | ${fixed(e.seconds, 1)} s | ${fixed(e.rows / e.seconds)} | ${mb(e.rssBeforeBytes)} | ${mb(e.peakRssBytes)} | ${mb(e.exportProcessPeakBytes ?? null)} | ${mb(allOwoPeak(e))} |`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * The peak of all Owo processes, bounded from above: the server's peak plus its export process's (the two peaks may
 * fall at different moments, so the true simultaneous peak is at most this).
 */
export function allOwoPeak(e: ExportResult): number | null {
  return e.peakRssBytes === null ? null : e.peakRssBytes + (e.exportProcessPeakBytes ?? 0);
}

/** req/s by instance count for every scenario measured at more than one, and each count's multiple of one instance. */
export function scalingTable(outcomes: Outcome[]): string | null {
  const loads = outcomes.filter((o): o is LoadResult => o.kind === "load");
  const counts = [...new Set(loads.map(instancesOf))].sort((a, b) => a - b);
  if (counts.length < 2) return null;
  const rows = new Map<string, Map<number, number>>();
  for (const l of loads) {
    const key = `${l.scenario} | ${l.database ?? ""} | ${l.server}`;
    rows.set(key, (rows.get(key) ?? new Map<number, number>()).set(instancesOf(l), l.rps));
  }
  const lines = [
    `| scenario | db | server | ${counts.map((n) => `×${n} req/s`).join(" | ")} | ${counts
      .slice(1)
      .map((n) => `×${n} ÷ ×1`)
      .join(" | ")} |`,
    `|---|---|---|${counts.map(() => "--:").join("|")}|${counts
      .slice(1)
      .map(() => "--:")
      .join("|")}|`,
  ];
  for (const [key, byCount] of rows) {
    if (byCount.size < 2) continue;
    const one = byCount.get(1);
    const multiples = counts.slice(1).map((n) => {
      const r = one === undefined ? null : ratio(byCount.get(n) ?? NaN, one);
      return r === null ? "" : `${r.toFixed(2)}×`;
    });
    lines.push(
      `| ${key} | ${counts.map((n) => (byCount.has(n) ? fixed(byCount.get(n) ?? 0) : "")).join(" | ")} | ${multiples.join(" | ")} |`,
    );
  }
  return lines.join("\n");
}

export function resultsMarkdown(info: RunInfo, outcomes: Outcome[]): string {
  return [
    `# Owo bench — ${info.date}`,
    "",
    `\`${info.command}\` (${info.mode}; ${info.rows})`,
    "",
    `${info.cores} cores (${info.cpu}), Node ${info.node}; load average ${info.loadBefore} before, ${info.loadAfter} after.`,
    "",
    resultsTable(outcomes),
    "",
  ].join("\n");
}
