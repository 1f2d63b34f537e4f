"use client";
// The overview's figures and charts: money as the books have it (gross, fees, refunds, net) and gross by channel, over
// the payments' counts; switching period is instant, every period came in the one server call.
import { useState, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { naira } from "@/app/payment-display";
import type { Figures, OverviewMoney, OverviewPeriod, PaymentOverview } from "@/server/payments/overview";
import { NairaAxes } from "../naira-axes";
import styles from "./overview.module.css";

const PERIODS: { id: OverviewPeriod; label: string }[] = [
  { id: "today", label: "Today" },
  { id: "7d", label: "7 days" },
  { id: "30d", label: "30 days" },
];

const COLORS = {
  USSD: "#0b7a5a",
  TRANSFER: "#175cd3",
  successful: "#12b76a",
  unsuccessful: "#f04438",
  open: "#98a2b3",
  gross: "#a4bcfd",
  net: "#0b7a5a",
};

function rate(f: Figures): string {
  return f.successRate === null ? "—" : `${(f.successRate * 100).toFixed(1)}%`;
}

/** "−₦460.00" for money that left, "₦0.00" when none did. */
function minus(amount: string): string {
  return amount === "0.00" ? naira(amount) : `−${naira(amount)}`;
}

/** A figure card: what it counts, the figure, and what the figure means (`children`). */
function Kpi({
  label,
  testId,
  value,
  net,
  children,
}: {
  label: string;
  testId: string;
  value: string;
  net?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={net ? `card ${styles.kpi} ${styles.net}` : `card ${styles.kpi}`}>
      <span className={styles.kpiLabel}>{label}</span>
      <strong className={styles.kpiValue} data-testid={testId}>
        {value}
      </strong>
      <span className="muted">{children}</span>
    </div>
  );
}

/**
 * Money that arrived after its payment closed is the customer's: it is not in gross, and paying it back is not a refund
 * of a sale, so neither moves net; the provider's fee on it is the merchant's cost, in fees.
 */
function LateMoney({ money }: { money: OverviewMoney }) {
  const arrived = money.late !== "0.00" ? `${naira(money.late)} arrived after its payment had closed` : null;
  const paidBack = money.latePaidBack !== "0.00" ? `${naira(money.latePaidBack)} of such late money was paid back` : null;
  return (
    <>
      {[arrived, paidBack].filter(Boolean).join("; ")}. It is the customer&apos;s, so it is in neither gross nor refunds; the
      provider&apos;s fee on it is in fees.
    </>
  );
}

/** Gross − fees − refunds = net, as the books have it for the period. */
function MoneyFigures({ money }: { money: OverviewMoney }) {
  return (
    <div className={styles.money} data-testid="money">
      <Kpi label="Gross" testId="kpi-gross" value={naira(money.gross)}>
        customers paid for sales
      </Kpi>
      <Kpi label="Fees" testId="kpi-fees" value={minus(money.fees)}>
        the providers kept
      </Kpi>
      <Kpi label="Refunds" testId="kpi-refunds" value={minus(money.refunds)}>
        of sales, paid back to customers
      </Kpi>
      <Kpi label="Net" testId="kpi-net" value={naira(money.net)} net>
        {money.adjustments !== "0.00" ? `after ${naira(money.adjustments)} deducted by providers` : "what you keep"}
      </Kpi>
      {(money.late !== "0.00" || money.latePaidBack !== "0.00") && (
        <p className={`muted ${styles.late}`} data-testid="money-late">
          <LateMoney money={money} />
        </p>
      )}
    </div>
  );
}

/** A channel's part of gross (the core splits gross by channel), and its payments created in the period. */
function ChannelCard({ name, testId, f, total }: { name: string; testId: string; f: Figures; total: Figures }) {
  const share = total.volumeKobo === 0 ? 0 : Math.round((f.volumeKobo / total.volumeKobo) * 100);
  return (
    <div className={styles.channel} data-testid={testId}>
      <div className={styles.channelHead}>
        <strong>{name}</strong>
        <span className="muted">{share}% of gross</span>
      </div>
      <div className={styles.bar}>
        <span style={{ width: `${share}%` }} />
      </div>
      <dl className={styles.channelFigures}>
        <div>
          <dt>Received</dt>
          <dd data-testid="channel-received">{naira(f.volume)}</dd>
        </div>
        <div>
          <dt>Payments created</dt>
          <dd>{f.count.toLocaleString("en-NG")}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{rate(f)}</dd>
        </div>
      </dl>
    </div>
  );
}

export function OverviewPanel({ overview }: { overview: PaymentOverview }) {
  const [period, setPeriod] = useState<OverviewPeriod>("7d");
  const { totals, money, byChannel, chart } = overview.periods[period];
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

      <MoneyFigures money={money} />

      <div className={styles.kpis}>
        <Kpi label="Payments" testId="kpi-count" value={totals.count.toLocaleString("en-NG")}>
          {totals.successful.toLocaleString("en-NG")} successful · {totals.open} open · {totals.failed} failed · {totals.expired} expired
          {totals.cancelled > 0 && ` · ${totals.cancelled} cancelled`}
        </Kpi>
        <Kpi label="Success rate" testId="kpi-rate" value={rate(totals)}>
          of {ended.toLocaleString("en-NG")} that have ended
        </Kpi>
      </div>

      <div className={`card ${styles.chart}`}>
        <h2>Net volume</h2>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barGap={2}>
            <NairaAxes minTickGap={12} yWidth={56} legendInInk />
            <ReferenceLine y={0} stroke="#98a2b3" />
            <Bar dataKey="gross" name="Gross" fill={COLORS.gross} radius={[3, 3, 0, 0]} isAnimationActive={false} />
            <Bar dataKey="net" name="Net" fill={COLORS.net} radius={[3, 3, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>

      <div className={styles.channels}>
        <ChannelCard name="USSD" testId="channel-USSD" f={byChannel.USSD} total={totals} />
        <ChannelCard name="Bank transfer" testId="channel-TRANSFER" f={byChannel.TRANSFER} total={totals} />
        <p className={`muted ${styles.channelNote}`}>
          Gross, fees, refunds and net count money by when it moved, in Lagos time. Received: all money customers paid on the channel, as in
          Gross (part payments and overpayments included), so the channels add up to Gross. Payments and success rate: the payments created
          in the period.
        </p>
      </div>

      <div className={styles.charts}>
        <div className={`card ${styles.chart}`}>
          <h2>Received by channel</h2>
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={chart} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
              <NairaAxes minTickGap={12} yWidth={52} />
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
