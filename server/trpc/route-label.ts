// The label a tRPC request is counted and traced under (server/metrics/request-names.ts): Owo's own procedure names,
// never whatever path a client sent.
import { appRouter } from "./root";

let procedures: Set<string> | null = null;

/** /api/trpc/payments.list,payments.byReference → /api/trpc/payments.list,payments.byReference when each is Owo's. */
export function trpcRoute(path: string): string {
  procedures ??= new Set(Object.keys(appRouter._def.procedures));
  const known = procedures;
  const called = path.slice("/api/trpc/".length);
  return called.split(",").every((p) => known.has(p)) ? `/api/trpc/${called}` : "/api/trpc/{unknown}";
}
