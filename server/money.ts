// Money: naira strings on the wire, integer kobo everywhere else. Never through a float.
export type Kobo = number;

// At most 12 integer digits keeps every amount far inside Number.MAX_SAFE_INTEGER kobo.
const AMOUNT = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** "1500" → 150000, "1500.5" → 150050; null for anything that is not digits with at most 2 decimals. */
export function parseAmount(input: unknown): Kobo | null {
  if (typeof input !== "string") return null;
  const m = AMOUNT.exec(input);
  if (!m) return null;
  const naira = m[1] ?? "0";
  const fraction = (m[2] ?? "").padEnd(2, "0");
  return Number(naira) * 100 + Number(fraction);
}

/** A naira amount as a provider answers it: a JSON number (Flutterwave's 1500 or 7500.5) read through its decimal
 * text, or a string ("1500.00"); null when it is not at most 2 decimals. No float arithmetic touches the value. */
export function parseNairaAnswer(input: unknown): Kobo | null {
  if (typeof input === "number") return Number.isFinite(input) && input >= 0 ? parseAmount(String(input)) : null;
  return parseAmount(input);
}

/** 150050 → "1500.50". */
export function formatKobo(kobo: Kobo): string {
  const sign = kobo < 0 ? "-" : "";
  const abs = Math.abs(kobo);
  const naira = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, "0");
  return `${sign}${naira}.${rest}`;
}

/** For people: "₦1,500.50"; a negative amount (a balance the provider overpaid) "−₦1,500.50", the sign before the naira. */
export function displayNaira(kobo: Kobo): string {
  const [naira = "0", rest = "00"] = formatKobo(Math.abs(kobo)).split(".");
  return `${kobo < 0 ? "−" : ""}₦${naira.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${rest}`;
}

/**
 * An amount as a person types it in the dashboard (" 12,345.67 ") as the wire writes it ("12345.67"): the spaces
 * around and the thousands commas dropped, nothing else; parseAmount (on the server) still decides if it is an amount.
 */
export function typedAmount(typed: string): string {
  return typed.trim().replaceAll(",", "");
}
