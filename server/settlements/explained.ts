// A settlement as the merchant's page explains it: each line's verdict as reconciliation (reconcile.ts) reached it,
// the open findings about that line, and how many sales its gross adds up. The page shows these; it decides none.
import { readSnapshot } from "../../db/client";
import { listExceptions, openFindingsOf } from "../reconciliation/exceptions";
import type { Scope } from "../merchants/scope";
import { getSettlement } from "./view";

type Line = Awaited<ReturnType<typeof getSettlement>>["lines"][number];

/**
 * - `matched`: a sale Owo tied to its record and found in agreement; `disagrees`: tied, but reconciliation left an
 *   open finding about it (its amount, its fee).
 * - `external`: the merchant's other sale on the same provider account, not Owo's to compare.
 * - `deducted`: a refund or deduction the provider took that Owo could not tie to one of its refunds; told for what it
 *   is, never flagged.
 * - `unmatched`: a sale Owo cannot place (an unknown payment under Owo's prefix is one).
 */
type LineVerdict = "matched" | "disagrees" | "external" | "deducted" | "unmatched";

function verdictOf(line: Line, findings: number): LineVerdict {
  if (line.matched) return findings > 0 ? "disagrees" : "matched";
  if (line.kind === "external") return "external";
  if (line.kind === "adjustment" || line.kind === "refund") return "deducted";
  return "unmatched";
}

/**
 * The sales the gross adds up (Owo's, unknown or the merchant's other ones; refunds and deductions are negative): a
 * payment paid in parts has a line for each credit, and is one sale.
 */
function salesOf(lines: Line[]): number {
  const sales = lines.filter((l) => !l.grossAmount.startsWith("-"));
  const owos = new Set(sales.flatMap((l) => (l.paymentReference ? [l.paymentReference] : [])));
  return owos.size + sales.filter((l) => !l.paymentReference).length;
}

/** The settlement with its lines explained, and every exception reconciliation opened on it, open or resolved. */
export async function explainSettlement(scope: Scope, settlementId: string) {
  // One snapshot: a reconciliation committing between the reads cannot pair these lines with other findings.
  const { settlement, exceptions, open } = await readSnapshot(async (q) => ({
    settlement: await getSettlement(scope, settlementId, q),
    // Every one, not a page: a line's verdict must not depend on how many findings its settlement has.
    exceptions: await listExceptions(scope, { settlementId, status: "all", limit: Number.MAX_SAFE_INTEGER }, q),
    // A finding is about one provider transaction: of a payment paid in two parts, only the part that disagrees is marked.
    open: await openFindingsOf(scope, settlementId, q),
  }));
  const lines = settlement.lines.map((line) => {
    const findings = [...new Set(open.filter((f) => f.subject === line.providerTransactionId).map((f) => f.kind))];
    // Only sales are compared with Owo's record: their findings make a matched line disagree.
    return { ...line, verdict: verdictOf(line, line.kind === "payment" ? findings.length : 0), findings };
  });
  return { ...settlement, lines, sales: salesOf(settlement.lines), exceptions, openExceptions: open.length };
}
