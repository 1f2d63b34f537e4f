// Whose data a service call reads and writes: one merchant, in one mode. Doors pass it; every query keeps to it.
import type { Mode } from "../../db/schema";

export type Scope = { readonly merchantId: string; readonly mode: Mode };

/** The caller's merchant and mode and nothing else of the caller: a service learns whom it serves, not who asked. */
export function scopeOf(caller: { merchantId: string; mode: Mode }): Scope {
  return { merchantId: caller.merchantId, mode: caller.mode };
}
