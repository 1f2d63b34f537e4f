// How the Flutterwave double speaks Flutterwave: its envelope for an answer and for a refusal (`status`, `message`,
// `data`), a control route's refusal, and what a request's body holds: a JSON object, naira amounts with at most 2 decimals.
import { parseNairaAnswer } from "../../money";
import type { DoubleAnswer } from "../test-double/double-server";

export const refused = (status: number, message: string): DoubleAnswer => ({ status, body: { status: "error", message, data: null } });
export const ok = (message: string, data: unknown, extra: Record<string, unknown> = {}): DoubleAnswer => ({
  status: 200,
  body: { status: "success", message, data, ...extra },
});
export const controlError = (status: number, error: string): DoubleAnswer => ({ status, body: { error } });

export function fields(json: unknown): Record<string, unknown> | null {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
}

/** Positive kobo from Flutterwave's `amount`: a naira string or number with at most 2 decimals. */
export function amountOf(v: unknown): number | null {
  const k = parseNairaAnswer(v);
  return k !== null && k > 0 ? k : null;
}

/** A Flutterwave list's `from`/`to` (dates, `to` taken whole) and `page` (from 1) query, or its 400 as Flutterwave
 * words it. */
export function listWindow(q: URLSearchParams): { from: number; to: number; page: number } | DoubleAnswer {
  const from = q.get("from") === null ? -Infinity : Date.parse(q.get("from") ?? "");
  const to = q.get("to") === null ? Infinity : Date.parse(q.get("to") ?? "") + 86_400_000;
  const page = Number(q.get("page") ?? "1");
  if (Number.isNaN(from) || Number.isNaN(to)) return refused(400, "from and to must be dates (YYYY-MM-DD)");
  if (!Number.isInteger(page) || page < 1) return refused(400, "page must be a positive integer");
  return { from, to, page };
}
