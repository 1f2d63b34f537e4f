// What a provider test double can be told to get wrong, on demand over HTTP (POST /_double/faults): answer 5xx,
// hang, cut the connection without an answer (disconnect), drop / duplicate / reorder its webhooks, send a webhook whose amount disagrees with its own record, fail a
// refund — and lose an answer: do what was asked, then answer 5xx or never answer (processed-then-5xx,
// processed-then-hang), as when a provider's reply is lost on the way back. Each fault is armed for the next `times` occurrences, optionally only for API paths starting with `path`.
import { z } from "zod";

export const faultKinds = [
  "5xx",
  "hang",
  "disconnect",
  "drop-webhook",
  "duplicate-webhook",
  "reorder-webhooks",
  "amount-mismatch",
  "refund-fails",
  "processed-then-5xx",
  "processed-then-hang",
] as const;
export type FaultKind = (typeof faultKinds)[number];

export const faultRequest = z.object({
  kind: z.enum(faultKinds),
  times: z.number().int().min(1).max(1000).default(1),
  path: z.string().startsWith("/").optional(),
});
export type FaultRequest = z.input<typeof faultRequest>;

type Armed = { kind: FaultKind; left: number; path?: string };

export class FaultPlan {
  private armed: Armed[] = [];

  arm(f: z.output<typeof faultRequest>): void {
    this.armed.push({ kind: f.kind, left: f.times, ...(f.path ? { path: f.path } : {}) });
  }

  clear(): void {
    this.armed = [];
  }

  list(): readonly Armed[] {
    return this.armed;
  }

  /** Uses up one occurrence of the first armed fault of these kinds that applies to `path`. */
  take(kinds: readonly FaultKind[], path?: string): FaultKind | null {
    const f = this.armed.find((a) => kinds.includes(a.kind) && (!a.path || (path ?? "").startsWith(a.path)));
    if (!f) return null;
    f.left -= 1;
    if (f.left <= 0) this.armed = this.armed.filter((a) => a !== f);
    return f.kind;
  }

  /** How many webhooks a reorder fault still wants to hold before it lets them all go, newest first. */
  reorderLeft(): number {
    return this.armed.find((a) => a.kind === "reorder-webhooks")?.left ?? 0;
  }
}
