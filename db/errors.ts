// Database errors the services act on, recognised on both databases (Drizzle may wrap the driver's error as `cause`).
const UNIQUE_VIOLATION = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"]);

/** A unique index refused the row: someone else took the value first. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if (UNIQUE_VIOLATION.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}
