"use client";
// What the dashboard's money charts (net volume, received by channel, balances over time) draw around their bars and
// lines: a light grid, days along the bottom, naira up the side and in the tooltip, and the legend. Recharts 3 reads
// axes from any depth of the chart's children, so they may sit in a component of their own.
import { CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { shortNaira } from "@/app/payment-display";
import { displayNaira } from "@/server/money";
import styles from "./naira-axes.module.css";

type NairaAxesProps = {
  /** Room between the day labels, in pixels. */
  minTickGap: number;
  /** The naira axis' width, in pixels. */
  yWidth: number;
  /** The legend's names in ink; without, each takes its series' colour. */
  legendInInk?: boolean;
};

export function NairaAxes({ minTickGap, yWidth, legendInInk }: NairaAxesProps) {
  return (
    <>
      <CartesianGrid vertical={false} stroke="#eef1f6" />
      <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={12} interval="preserveStartEnd" minTickGap={minTickGap} />
      <YAxis tickFormatter={shortNaira} tickLine={false} axisLine={false} fontSize={12} width={yWidth} />
      <Tooltip formatter={(v) => displayNaira(Number(v))} cursor={{ fill: "#f2f4f7" }} />
      <Legend
        iconType="circle"
        wrapperStyle={{ fontSize: 12 }}
        itemSorter={null}
        formatter={legendInInk ? (name) => <span className={styles.legend}>{name}</span> : undefined}
      />
    </>
  );
}
