// Issue 15's targets, read off one run's outcomes: each line says what was measured and whether it meets the mark.
import type { Dialect } from "./options";
import { floorOf, ratio, type ExportResult, type LoadResult, type Outcome } from "./report";

export type Verdict = { target: string; database: Dialect | ""; measured: string; met: boolean | null };

const pct = (r: number) => `${(r * 100).toFixed(0)} %`;
const RSS_LIMIT_BYTES = 300 * 1048576;

function loadsOf(outcomes: Outcome[]): LoadResult[] {
  return outcomes.filter((o): o is LoadResult => o.kind === "load");
}

/** Each listed ratio must reach `min`; the verdict lists them all, so a near miss shows which door missed. */
function allAtLeast(
  target: string,
  database: Dialect | "",
  pairs: [string, number | null][],
  min: number,
  show: (r: number) => string,
): Verdict | null {
  const known = pairs.filter((p): p is [string, number] => p[1] !== null);
  if (known.length === 0) return null;
  return { target, database, measured: known.map(([what, r]) => `${what} ${show(r)}`).join(", "), met: known.every(([, r]) => r >= min) };
}

export function verdicts(outcomes: Outcome[]): Verdict[] {
  const loads = loadsOf(outcomes);
  const owo = loads.filter((l) => l.server === "owo");
  const one = (l: LoadResult) => (l.instances ?? 1) === 1;
  const out: (Verdict | null)[] = [];
  const databases = [...new Set(loads.map((l) => l.database ?? ""))];
  for (const db of databases) {
    const here = owo.filter((l) => (l.database ?? "") === db);
    const rest = here.filter((l) => one(l) && /^initiate \w+ \(REST\)$/.test(l.scenario));
    out.push(
      allAtLeast(
        "REST initiate ≥ 50 % of its floor (as deployed)",
        db,
        rest.map((l) => {
          const floor = floorOf(l, outcomes);
          return [l.scenario.split(" ")[1] ?? "", floor ? ratio(l.rps, floor.rps) : null];
        }),
        0.5,
        pct,
      ),
    );
    out.push(
      allAtLeast(
        "tRPC initiate ≥ 80 % of REST",
        db,
        rest.map((l) => {
          const trpc = here.find((t) => one(t) && t.scenario === l.scenario.replace("(REST)", "(tRPC)"));
          return [l.scenario.split(" ")[1] ?? "", trpc ? ratio(trpc.rps, l.rps) : null];
        }),
        0.8,
        pct,
      ),
    );
    const two = (server: "owo" | "floor") =>
      loads
        .filter((l) => l.server === server && (l.database ?? "") === db && l.instances === 2)
        .map((l): [string, number | null] => {
          const single = loads.find((s) => s.server === server && s.database === l.database && one(s) && s.scenario === l.scenario);
          return [`${server === "floor" ? "floor " : ""}${l.scenario}`, single ? ratio(l.rps, single.rps) : null];
        });
    out.push(allAtLeast("2 instances ≥ 1.6× one", db, two("owo"), 1.6, (r) => `${r.toFixed(2)}×`));
    const worst = here.filter((l) => l.connections === 32).sort((a, b) => b.p99 - a.p99)[0];
    if (worst)
      out.push({
        target: "p99 ≤ 50 ms at 32 connections",
        database: db,
        measured: `worst ${worst.p99} ms (${worst.scenario}, ×${worst.instances ?? 1})`,
        met: worst.p99 <= 50,
      });
  }
  for (const e of outcomes.filter((o): o is ExportResult => o.kind === "export")) {
    out.push({
      target: "CSV export server RSS ≤ 300 MB",
      database: e.database ?? "",
      measured: `${e.rows.toLocaleString("en")} rows, peak ${e.peakRssBytes === null ? "n/a" : `${(e.peakRssBytes / 1048576).toFixed(0)} MB`}`,
      met: e.peakRssBytes === null ? null : e.peakRssBytes <= RSS_LIMIT_BYTES,
    });
  }
  return out.filter((v): v is Verdict => v !== null);
}

export function verdictTable(outcomes: Outcome[]): string {
  const lines = ["| target | db | measured | met |", "|---|---|---|---|"];
  for (const v of verdicts(outcomes))
    lines.push(`| ${v.target} | ${v.database} | ${v.measured} | ${v.met === null ? "?" : v.met ? "yes" : "no"} |`);
  return lines.join("\n");
}
