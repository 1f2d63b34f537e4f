// The latency chart of a bench run (bench/results/latency.svg): p50, p90 and p99 of each scenario, one bar group each.
import { instancesOf, type LoadResult, type Outcome } from "./report";

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A tick step of 1, 2 or 5 × 10^n giving about five ticks up to `max`. */
export function tickStep(max: number): number {
  const rough = Math.max(max, 1) / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
}

const PERCENTILES = [
  { key: "p50", colour: "#7fb3d5" },
  { key: "p90", colour: "#2e86c1" },
  { key: "p99", colour: "#1b4f72" },
] as const;

/** Horizontal bars: p50, p90 and p99 per load scenario, one shared millisecond axis. */
export function latencySvg(outcomes: Outcome[], title: string): string {
  const loads = outcomes.filter((o): o is LoadResult => o.kind === "load");
  const label = 300;
  const plot = 520;
  const bar = 10;
  const group = bar * PERCENTILES.length + 12;
  const top = 50;
  const height = top + loads.length * group + 40;
  const max = Math.max(1, ...loads.map((l) => l.p99));
  const step = tickStep(max);
  const axisMax = Math.ceil(max / step) * step;
  const x = (ms: number) => label + (ms / axisMax) * plot;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${label + plot + 60}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  PERCENTILES.forEach((p, i) =>
    parts.push(
      `<rect x="${label + i * 70}" y="30" width="10" height="10" fill="${p.colour}"/><text x="${label + i * 70 + 14}" y="39">${p.key}</text>`,
    ),
  );
  for (let t = 0; t <= axisMax; t += step) {
    parts.push(
      `<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${height - 36}" stroke="#ddd"/><text x="${x(t)}" y="${height - 22}" text-anchor="middle">${t}</text>`,
    );
  }
  parts.push(`<text x="${label + plot / 2}" y="${height - 6}" text-anchor="middle">latency (ms)</text>`);
  loads.forEach((l, i) => {
    const y = top + i * group;
    const where = l.database ? ` [${l.database}${instancesOf(l) > 1 ? ` ×${instancesOf(l)}` : ""}]` : "";
    parts.push(
      `<text x="${label - 8}" y="${y + group / 2}" text-anchor="end">${escapeXml(`${l.server === "floor" ? "floor: " : ""}${l.scenario}${where}`)}</text>`,
    );
    PERCENTILES.forEach((p, j) => {
      const ms = l[p.key];
      parts.push(
        `<rect x="${label}" y="${y + j * bar}" width="${Math.max(1, x(ms) - label)}" height="${bar - 1}" fill="${p.colour}"><title>${escapeXml(`${l.scenario} ${p.key} ${ms} ms`)}</title></rect>`,
      );
    });
    parts.push(`<text x="${Math.max(label + 1, x(l.p99)) + 4}" y="${y + 3 * bar - 1}" font-size="10" fill="#555">${l.p99} ms</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}
