// tRPC's transformer: superjson on the wire, with a shortcut for answers that are plain JSON already (nearly all).
import { TRPCError } from "@trpc/server";
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

/** Deepest nesting of arrays and objects, walked without recursion (a deep input must not blow the stack here). */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop() as [unknown, number];
    if (next === null || typeof next !== "object") continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Object.values(next)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** superjson's walk recurses: refused first, in words, instead of answering "Maximum call stack size exceeded". */
function deserializeInput(value: Parameters<typeof superjson.deserialize>[0]): unknown {
  // `{ json, meta }` adds two levels to the caller's own value.
  if (depthOf(value, MAX_DEPTH + 2) > MAX_DEPTH + 2) {
    throw new TRPCError({ code: "BAD_REQUEST", message: `Invalid/Missing parameters = input: nested deeper than ${MAX_DEPTH} levels` });
  }
  return superjson.deserialize(value);
}

/**
 * superjson walks every value of an answer to build its meta, and for plain JSON answers `{ json: value }` with no
 * meta: a list page of 50 payments spent a quarter of its time there (bench/README.md). Plain answers skip the
 * walk; anything else (dates, undefined, -0, class instances…) goes through superjson as before. Same bytes.
 */
export const transformer = {
  input: { serialize: (value: unknown) => superjson.serialize(value), deserialize: deserializeInput },
  output: {
    serialize: (value: unknown) => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
    deserialize: (value: Parameters<typeof superjson.deserialize>[0]) => superjson.deserialize(value),
  },
};
