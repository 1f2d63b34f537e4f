// The audit log: which signed-in person did what, for which merchant, when. Inputs are summarised, secrets never kept.
import { and, desc, eq, lt } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { auditLog, memberships, users } from "../../db/schema";
import { clock } from "../clock";
import { auditSentence } from "./audit-words";

export type AuditEntry = { merchantId: string; userId: string | null; action: string; input?: unknown; now?: number };

// Any field whose name says it carries a credential is dropped, whatever the procedure.
const SECRET_NAME = /secret|password|token|key|authorization|cookie/i;
const MAX_TEXT = 120;
const MAX_ITEMS = 20;

/** A bounded, redacted copy of an input: enough to tell what was done, never a credential. */
export function auditSummary(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (value === null || typeof value !== "object") return typeof value === "function" || typeof value === "symbol" ? undefined : value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= 3) return "[…]";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => auditSummary(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS)) out[k] = SECRET_NAME.test(k) ? "[redacted]" : auditSummary(v, depth + 1);
  return out;
}

/** The row's target: the id the action was about, when its input names one. */
function targetOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const o = input as Record<string, unknown>;
  const id = o.id ?? o.userId ?? o.linkId ?? o.endpointId ?? o.paymentReference;
  return typeof id === "string" || typeof id === "number" ? String(id) : null;
}

/** Writes one entry, inside `tx` when the action has its own transaction (so both commit or neither). */
export async function recordAudit(entry: AuditEntry, tx?: Tx): Promise<void> {
  const row = {
    merchantId: entry.merchantId,
    userId: entry.userId,
    action: entry.action,
    target: targetOf(entry.input),
    detailJson: JSON.stringify(auditSummary(entry.input ?? {}) ?? {}),
    createdAt: entry.now ?? clock.now(),
  };
  if (tx) await tx.insert(auditLog).values(row);
  else await write(async (t) => t.insert(auditLog).values(row));
}

/**
 * An action on a person's own account (password, two-factor, sessions, e-mail): it lands in the audit log of every
 * team they belong to, since each of those teams' money is what the account guards.
 */
export async function recordAccountAudit(tx: Tx, userId: string, action: string, input: unknown = {}, now = clock.now()): Promise<void> {
  const teams = await tx.select({ merchantId: memberships.merchantId }).from(memberships).where(eq(memberships.userId, userId));
  for (const t of teams) await recordAudit({ merchantId: t.merchantId, userId, action, input, now }, tx);
}

export type AuditView = {
  id: number;
  at: string;
  action: string;
  /** What was done, in one sentence (audit-words.ts): what the page shows. */
  sentence: string;
  target: string | null;
  detail: unknown;
  userId: string | null;
  userEmail: string | null;
};

/** Newest first; `before` (an entry id) pages further back. */
export async function listAudit(
  merchantId: string,
  opts: { before?: number; limit?: number } = {},
): Promise<{ entries: AuditView[]; nextBefore: number | null }> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const rows = await db()
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      target: auditLog.target,
      detailJson: auditLog.detailJson,
      userId: auditLog.userId,
      userEmail: users.email,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(
      opts.before === undefined
        ? eq(auditLog.merchantId, merchantId)
        : and(eq(auditLog.merchantId, merchantId), lt(auditLog.id, opts.before)),
    )
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => {
      const detail = JSON.parse(r.detailJson) as unknown;
      return {
        id: r.id,
        at: new Date(r.createdAt).toISOString(),
        action: r.action,
        sentence: auditSentence(r.action, r.target, detail),
        target: r.target,
        detail,
        userId: r.userId,
        userEmail: r.userEmail,
      };
    }),
    nextBefore: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
  };
}
