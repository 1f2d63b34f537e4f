// Days as Owo's merchants count them: West Africa Time, UTC+1 all year (Nigeria has no daylight saving).
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const WAT_OFFSET_MS = HOUR_MS;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The instant the Lagos day holding `ms` began. */
export function dayStartOf(ms: number): number {
  return Math.floor((ms + WAT_OFFSET_MS) / DAY_MS) * DAY_MS - WAT_OFFSET_MS;
}

/** "2026-11-21" → the instant that Lagos day begins; null for anything that is not a real calendar date. */
export function dayStartOfDate(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const utc = Date.UTC(year, month - 1, day);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return utc - WAT_OFFSET_MS;
}

/**
 * "2026-11-25 00:30:00": the wall-clock time in Lagos, as a spreadsheet reads a date and time. The exports' day filters
 * are Lagos days, so a sheet's own times must be too, or a sale at 00:30 in Lagos shows under the day before.
 */
export function lagosWallClock(ms: number): string {
  return new Date(ms + WAT_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

/** An instant as the API writes it (ISO 8601) on a Lagos clock; none stays none. */
export function inLagosTime(iso: string | null): string | null {
  return iso === null ? null : lagosWallClock(Date.parse(iso));
}

/** "21 Nov" for a day's start, "14:00" for an hour's, in Lagos time. */
export function dayLabel(ms: number): string {
  const d = new Date(ms + WAT_OFFSET_MS);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

export function hourLabel(ms: number): string {
  return `${String(new Date(ms + WAT_OFFSET_MS).getUTCHours()).padStart(2, "0")}:00`;
}
