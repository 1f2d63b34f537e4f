// A person (or the merchant's integration) resolves an exception with a note; a write-off also books the residue it
// names as an `adjustment` (write_off), so a difference does not sit in the books for ever. Audit-logged, one
// transaction: the exception, the entry and the audit row together.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { write, type Tx } from "../../db/client";
import { reconciliationExceptions, settlementLines, settlements } from "../../db/schema";
import { ApiError, invalidFields, notFound } from "../api-error";
import { providerAccount, type Account } from "../books/accounts";
import { ledgerQueue, postEntry } from "../books/post";
import { clock } from "../clock";
import { recordAudit } from "../team/audit";
import { restateSettlements } from "./exceptions";
import type { Scope } from "../merchants/scope";

export const resolveInput = z
  .object({ note: z.string().trim().min(1, "must say what was done about it").max(1000), writeOff: z.boolean().default(false) })
  .strict();

type ExceptionRow = typeof reconciliationExceptions.$inferSelect;

export type ResolveInput = z.output<typeof resolveInput>;

export async function resolveException({ merchantId, mode }: Scope, exceptionId: string, input: ResolveInput, userId: string | null) {
  const { note, writeOff } = input;
  const now = clock.now();
  // A write-off books its entry: then the merchant's books are held from the start, so the resolve runs once.
  return write(
    async (tx) => {
      const [e] = await tx
        .select()
        .from(reconciliationExceptions)
        .where(
          and(
            eq(reconciliationExceptions.id, exceptionId),
            eq(reconciliationExceptions.merchantId, merchantId),
            eq(reconciliationExceptions.mode, mode),
          ),
        );
      if (!e) throw notFound("No such exception");
      if (e.resolvedAt !== null) throw new ApiError("S15", "The exception is already resolved");
      if (writeOff) await bookWriteOff(tx, e, now);
      const [resolved] = await tx
        .update(reconciliationExceptions)
        .set({ resolvedAt: now, note })
        .where(eq(reconciliationExceptions.id, e.id))
        .returning();
      await restateSettlements(tx, [e.settlementId]);
      await recordAudit({ merchantId, userId, action: "reconciliation.resolve", input: { id: e.id, kind: e.kind, writeOff }, now }, tx);
      return resolved ?? e;
    },
    writeOff ? { queues: [ledgerQueue(merchantId, mode)] } : {},
  );
}

/** The residue each kind leaves on a provider's balance (what Owo's books say it holds, that it never will pay). */
async function bookWriteOff(tx: Tx, e: ExceptionRow, at: number): Promise<void> {
  const [s] = e.settlementId === null ? [] : await tx.select().from(settlements).where(eq(settlements.id, e.settlementId));
  if (!s) throw invalidFields([{ field: "writeOff", message: "this exception names no settlement to write off against" }]);
  const provider = providerAccount(s.providerId === "sandbox" ? null : s.providerId);
  const expected = e.expectedKobo ?? 0;
  const actual = e.actualKobo ?? 0;
  let against: Account = provider;
  let residue: number;
  if (e.kind === "net_mismatch" || e.kind === "amount_mismatch") residue = expected - actual;
  else if (e.kind === "fee_mismatch") residue = actual - expected;
  else if (e.kind === "unknown_payment") {
    // The money a line paid for no Owo payment sits in suspense: writing it off takes it out as a negative cost.
    const [line] = await tx
      .select({ netKobo: settlementLines.netKobo })
      .from(settlementLines)
      .where(and(eq(settlementLines.settlementId, s.id), eq(settlementLines.providerTransactionId, e.subject)));
    against = "suspense";
    residue = -(line?.netKobo ?? 0);
  } else throw invalidFields([{ field: "writeOff", message: `a ${e.kind} exception has no residue to write off` }]);
  if (residue === 0) return;
  await postEntry(tx, {
    merchantId: e.merchantId,
    mode: e.mode,
    kind: "adjustment",
    reason: "write_off",
    settlementId: s.id,
    postings: [
      { account: "adjustments", amountKobo: residue },
      { account: against, amountKobo: -residue },
    ],
    postedAt: at,
  });
}
