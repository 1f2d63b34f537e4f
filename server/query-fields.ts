// Fields the API's list queries share (balances' entries, settlements, reconciliation): a query string carries them
// as text, so each is read strictly ("1e2" is no limit) and refused in words that say what was expected.
import { z } from "zod";
import { dayStartOfDate } from "./payments/calendar";

const DAY = "must be a day as YYYY-MM-DD";

/** An Africa/Lagos day, "2026-11-21": a real calendar date. */
export const lagosDay = z.string({ error: DAY }).refine((d) => dayStartOfDate(d) !== null, DAY);

/** A whole number from `min` to `max`, as a number (tRPC) or as digits (a query string), refused as `expected` says. */
export function wholeNumber(min: number, max: number, expected: string) {
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,6}$/)
          .transform(Number),
      ],
      { error: expected },
    )
    .pipe(z.number().int(expected).min(min, expected).max(max, expected));
}

/** A page's size: a whole number from 1 to `max`. */
export const pageLimit = (max: number) => wholeNumber(1, max, `must be a whole number from 1 to ${max}`);

/**
 * A from–to range of days runs forwards: the refusal names `from` (spread into a schema's `.refine`). Zod runs it even
 * when a day was refused already, so only two real days are compared.
 */
export const daysInOrder: [(q: { from?: string; to?: string }) => boolean, { path: string[]; message: string }] = [
  (q) => q.from === undefined || q.to === undefined || dayStartOfDate(q.from) === null || dayStartOfDate(q.to) === null || q.from <= q.to,
  { path: ["from"], message: "must not be later than to" },
];
