// How payments read to people, the same in the dashboard and on the checkout: naira, status words, Lagos times.
import type { PaymentStatus } from "@/db/schema";
import { displayNaira, parseAmount } from "@/server/money";

/** "1500.00" → "₦1,500.00", "-250.00" → "−₦250.00" (through kobo, never a float). */
export function naira(amount: string): string {
  const negative = amount.startsWith("-");
  const kobo = parseAmount(negative ? amount.slice(1) : amount) ?? 0;
  return displayNaira(negative ? -kobo : kobo);
}

/** Axis ticks, shortened: ₦750, ₦2.5k, ₦12k, ₦1.5M, −₦3k (a label, not money anyone adds up). */
export function shortNaira(kobo: number): string {
  const sign = kobo < 0 ? "−" : "";
  const n = Math.abs(kobo) / 100;
  const short = (v: number, unit: string) => `${sign}₦${Number(v.toFixed(v < 10 ? 1 : 0))}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, "M");
  if (n >= 1_000) return short(n / 1_000, "k");
  return `${sign}₦${Math.round(n)}`;
}

export const STATUS_LABEL: Record<PaymentStatus, string> = {
  PENDING: "Pending",
  PARTIALLY_PAID: "Partly paid",
  SUCCESSFUL: "Successful",
  FAILED: "Failed",
  EXPIRED: "Expired",
  CANCELLED: "Cancelled",
};

export const CHANNEL_LABEL = { USSD: "USSD", TRANSFER: "Bank transfer" } as const;

/** A standard-checkout payment has no channel until its customer chooses one. */
export function channelLabel(type: keyof typeof CHANNEL_LABEL | null): string {
  return type ? CHANNEL_LABEL[type] : "Not chosen yet";
}

// Fixed zone and locale, so the server's render and the browser's hydration print the same text.
const dateTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Lagos",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const time = new Intl.DateTimeFormat("en-GB", { timeZone: "Africa/Lagos", hour: "2-digit", minute: "2-digit", second: "2-digit" });

export function lagosDateTime(iso: string | null): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}

export function lagosTime(iso: string): string {
  return time.format(new Date(iso));
}

/** Time left until `expiresAt`: "4:59", "1:02:03", or "Time is up" once it has passed (the dashboard and the checkout). */
export function timeLeft(expiresAt: string, now: number): string {
  const ms = Date.parse(expiresAt) - now;
  if (ms <= 0) return "Time is up";
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
