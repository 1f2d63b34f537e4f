"use client";
// What each provider held unsettled at the end of each day (lines) and what was paid out that day (bars).
import { Bar, ComposedChart, Line, ResponsiveContainer } from "recharts";
import type { BalanceHistory } from "@/server/books/balance-history";
import { NairaAxes } from "../naira-axes";

const LINE_COLORS = ["#0b7a5a", "#175cd3", "#b54708", "#6941c6", "#c11574"];

export function BalanceChart({ history, names }: { history: BalanceHistory; names: Record<string, string> }) {
  const data = history.days.map((d) => ({ label: d.label, paidOut: d.paidOut, ...d.unsettled }));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <NairaAxes minTickGap={16} yWidth={56} legendInInk />
        <Bar dataKey="paidOut" name="Paid out" fill="#c7d7fe" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        {history.providers.map((p, i) => (
          <Line
            key={p.providerId}
            dataKey={p.providerId}
            name={`${names[p.providerId] ?? p.providerId} unsettled`}
            type="stepAfter"
            stroke={LINE_COLORS[i % LINE_COLORS.length]}
            strokeWidth={2}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
