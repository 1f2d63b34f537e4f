"use client";
// The overview's figures and charts; switching period is instant, every period came in the one server call.
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { naira } from "@/app/payment-display";
import { displayNaira } from "@/server/payments/money";
import type { Figures, OverviewPeriod, PaymentOverview } from "@/server/payments/overview";
import styles from "./overview.module.css";

const PERIODS: { id: OverviewPeriod; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "7d", label: "7 days" },
  { id: "30d", label: "30 days" },
];

const COLORS = { USSD: "#0b7a5a", TRANSFER: "#175cd3", successful: "#12b76a", unsuccessful: "#f04438", open: "#98a2b3" };

function rate(f: Figures): string {
  return f.successRate === null ? "—" : `${(f.successRate * 100).toFixed(1)}%`;
}

/** Axis ticks, shortened: ₦750, ₦2.5k, ₦12k, ₦1.5M (a label, not money anyone adds up). */
function shortNaira(kobo: number): string {
  const n = kobo / 100;
  const short = (v: number, unit: string) => `₦${Number(v.toFixed(v < 10 ? 1 : 0))}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, "M");
  if (n >= 1_000) return short(n / 1_000, "k");
  return `₦${Math.round(n)}`;
}

function ChannelCard({ name, f, total }: { name: string; f: Figures; total: Figures }) {
  const share = total.volumeKobo === 0 ? 0 : Math.round((f.volumeKobo / total.volumeKobo) * 100);
  return (
    <div className={styles.channel}>
      <div className={styles.channelHead}>
        <strong>{name}</strong>
        <span className="muted">{share}% of volume</span>
      </div>
      <div className={styles.bar}>
        <span style={{ width: `${share}%` }} />
      </div>
      <dl className={styles.channelFigures}>
        <div>
          <dt>Volume</dt>
          <dd>{naira(f.volume)}</dd>
        </div>
        <div>
          <dt>Payments</dt>
          <dd>{f.count.toLocaleString("en-NG")}</dd>
        </div>
        <div>
          <dt>Success</dt>
          <dd>{rate(f)}</dd>
        </div>
      </dl>
    </div>
  );
}

export function OverviewPanel({ overview }: { overview: PaymentOverview }) {
  const [period, setPeriod] = useState<OverviewPeriod>("7d");
  const { totals, byChannel, chart } = overview.periods[period];
  const ended = totals.successful + totals.failed + totals.expired;
  return (
    <div className={styles.panel}>
      <div className={styles.tabs} role="tablist" aria-label="Period">
        {PERIODS.map((p) => (
          <button
            key={p.id}
            type="button"
            role="tab"
            aria-selected={p.id === period}
            className={p.id === period ? styles.tabOn : styles.tab}
            onClick={() => setPeriod(p.id)}
          >
            {p.label}
          </button>
        ))}
      </div>

      <div className={styles.kpis}>
        <div className={`card ${styles.kpi}`}>
          <span className={styles.kpiLabel}>Volume</span>
          <strong className={styles.kpiValue} data-testid="kpi-volume">
            {naira(totals.volume)}
          </strong>
          <span className="muted">{totals.successful.toLocaleString("en-NG")} successful payments</span>
        </div>
        <div className={`card ${styles.kpi}`}>
          <span className={styles.kpiLabel}>Payments</span>
          <strong className={styles.kpiValue} data-testid="kpi-count">
            {totals.count.toLocaleString("en-NG")}
          </strong>
          <span className="muted">
            {totals.open} open · {totals.failed} failed · {totals.expired} expired
            {totals.cancelled > 0 && ` · ${totals.cancelled} cancelled`}
          </span>
        </div>
        <div className={`card ${styles.kpi}`}>
          <span className={styles.kpiLabel}>Success rate</span>
          <strong className={styles.kpiValue} data-testid="kpi-rate">
            {rate(totals)}
          </strong>
          <span className="muted">of {ended.toLocaleString("en-NG")} that have ended</span>
        </div>
      </div>

      <div className={styles.channels}>
        <ChannelCard name="USSD" f={byChannel.USSD} total={totals} />
        <ChannelCard name="Bank transfer" f={byChannel.TRANSFER} total={totals} />
      </div>

      <div className={styles.charts}>
        <div className={`card ${styles.chart}`}>
          <h2>Volume by channel</h2>
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke="#eef1f6" />
              <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} interval="preserveStartEnd" minTickGap={12} />
              <YAxis tickFormatter={shortNaira} tickLine={false} axisLine={false} fontSize={12} width={52} />
              <Tooltip formatter={(v) => displayNaira(Number(v))} cursor={{ fill: "#f2f4f7" }} />
              <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
              <Bar dataKey="USSD" name="USSD" stackId="volume" fill={COLORS.USSD} radius={[0, 0, 0, 0]} isAnimationActive={false} />
              <Bar
                dataKey="TRANSFER"
                name="Bank transfer"
                stackId="volume"
                fill={COLORS.TRANSFER}
                radius={[3, 3, 0, 0]}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
        <div className={`card ${styles.chart}`}>
          <h2>Payments by outcome</h2>
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <CartesianGrid vertical={false} stroke="#eef1f6" />
              <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} interval="preserveStartEnd" minTickGap={12} />
              <YAxis allowDecimals={false} tickLine={false} axisLine={false} fontSize={12} width={32} />
              <Tooltip cursor={{ fill: "#f2f4f7" }} />
              <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
              <Bar dataKey="successful" name="Successful" stackId="n" fill={COLORS.successful} isAnimationActive={false} />
              <Bar dataKey="unsuccessful" name="Failed or expired" stackId="n" fill={COLORS.unsuccessful} isAnimationActive={false} />
              <Bar dataKey="open" name="Open" stackId="n" fill={COLORS.open} radius={[3, 3, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </div>
    </div>
  );
}
