// tRPC's transformer: superjson on the wire, with a shortcut for answers that are plain JSON already (nearly all).
import superjson from "superjson";

const MAX_DEPTH = 64;

/** Strings, finite numbers (not -0), booleans, null, and arrays and Object-literal objects of those. */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== "object" || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (key === "__proto__" || key === "constructor" || key === "prototype") return false;
    if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/**
 * superjson walks every value of an answer to build its meta, and for plain JSON answers `{ json: value }` with no
 * meta: a list page of 50 payments spent a quarter of its time there (bench/README.md). Plain answers skip the
 * walk; anything else (dates, undefined, -0, class instances…) goes through superjson as before. Same bytes.
 */
export const transformer = {
  input: superjson,
  output: {
    serialize: (value: unknown) => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
    deserialize: (value: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(value),
  },
};
