// How the Paystack double speaks Paystack: its envelope for an answer and for a refusal (`status`, `message`, `data`;
// https://paystack.com/docs/api/#errors), and what a request's body holds: a JSON object, kobo as Paystack takes them.
import type { DoubleAnswer } from "../test-double/double-server";

export const refused = (status: number, message: string, extra: Record<string, unknown> = {}): DoubleAnswer => ({
  status,
  body: { status: false, message, ...extra },
});
/** A control route's refusal (/_double/…): not Paystack's envelope, as no Paystack client reads it. */
export const controlError = (status: number, error: string): DoubleAnswer => ({ status, body: { error } });
export const ok = (message: string, data: unknown): DoubleAnswer => ({ status: 200, body: { status: true, message, data } });

/** Paystack's kobo: a JSON integer, or a string of digits as its own curl samples send ("10000"). */
export function koboOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === "string" && /^[1-9]\d{0,14}$/.test(v)) return Number(v);
  return null;
}

export function fields(json: unknown): Record<string, unknown> | null {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
}

/** A Paystack list's `from`/`to` (dates) and `perPage` (default 50)/`page` query, or its 400 as Paystack words it. */
export function listWindow(q: URLSearchParams): { from: number; to: number; perPage: number; page: number } | DoubleAnswer {
  const from = q.get("from") === null ? -Infinity : Date.parse(q.get("from") ?? "");
  const to = q.get("to") === null ? Infinity : Date.parse(q.get("to") ?? "");
  const perPage = Number(q.get("perPage") ?? "50");
  const page = Number(q.get("page") ?? "1");
  if (Number.isNaN(from) || Number.isNaN(to)) return refused(400, "Invalid date: from and to must be dates", { type: "validation_error" });
  if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page) || page < 1)
    return refused(400, "perPage and page must be positive integers", { type: "validation_error" });
  return { from, to, perPage, page };
}
