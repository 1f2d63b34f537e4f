"use client";
// The period as a waterfall: what the providers held at the start, each movement up or down, what they hold at the end.
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { signedDisplay, signedKobo } from "@/app/settlement-display";
import type { ReconciliationReport } from "@/server/reconciliation/report";

const UP = "#12b76a";
const DOWN = "#f04438";
const TOTAL = "#175cd3";

/** Axis ticks, shortened: ₦750, ₦2.5k, ₦1.5M (a label, not money anyone adds up). */
function shortNaira(naira: number): string {
  const n = Math.abs(naira);
  const sign = naira < 0 ? "−" : "";
  const short = (v: number, unit: string) => `${sign}₦${Number(v.toFixed(v < 10 ? 1 : 0))}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, "M");
  if (n >= 1_000) return short(n / 1_000, "k");
  return `${sign}₦${Math.round(n)}`;
}

export function ReportChart({ report }: { report: ReconciliationReport }) {
  const steps: [label: string, amount: string, sign: 1 | -1 | 0][] = [
    ["Opening", report.opening, 0],
    ["Credits", report.credits, 1],
    ["Fees", report.fees, -1],
    ["Refunds", report.refunds, -1],
    ["Adjustments", report.adjustments, -1],
    ["Paid out", report.paidOut, -1],
    ["External", report.external, 1],
    ["Suspense", report.suspense, 1],
    ["Closing", report.closing, 0],
  ];
  // Running position of each bar (kobo), drawn in naira: pixels, not money.
  let at = 0;
  const data = steps.map(([label, amount, sign]) => {
    const kobo = signedKobo(amount);
    if (sign === 0) {
      at = kobo;
      return { label, range: [0, kobo / 100], shown: signedDisplay(kobo), color: TOTAL };
    }
    const from = at;
    at += sign * kobo;
    return { label, range: [from / 100, at / 100], shown: signedDisplay(sign * kobo), color: at >= from ? UP : DOWN };
  });
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#eef1f6" />
        <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} interval={0} angle={-30} textAnchor="end" height={56} />
        <YAxis tickFormatter={shortNaira} tickLine={false} axisLine={false} fontSize={12} width={56} />
        <Tooltip cursor={{ fill: "#f2f4f7" }} formatter={(_v, _n, item) => [(item.payload as { shown: string }).shown, "Moved"]} />
        <Bar dataKey="range" isAnimationActive={false} radius={[3, 3, 3, 3]}>
          {data.map((d) => (
            <Cell key={d.label} fill={d.color} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
