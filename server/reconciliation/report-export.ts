// The period report as CSV for the signed-in merchant and mode: its figures in the identity's order, then the
// exceptions open in the period. Bounded by the period, so one chunk per part.
import type { Caller } from "../auth/caller";
import { parseFields } from "../api-error";
import { assertCan } from "../auth/permissions";
import { scopeOf } from "../merchants/scope";
import { inLagosTime } from "../payments/calendar";
import { csvField } from "../payments/export";
import { reconciliationReport, reportQuery } from "./report";

const record = (fields: (string | number | null)[]) => fields.map((f) => csvField(f === null ? "" : String(f))).join(",") + "\r\n";

export async function exportReportFor(caller: Caller, query: unknown) {
  assertCan(caller, "settlements.export");
  const r = await reconciliationReport(scopeOf(caller), parseFields(reportQuery, query));
  // The page's "+ Credits" would be a formula to a spreadsheet (csvField defuses it to text): words say the same.
  const figures: [string, string][] = [
    ["Opening (held by providers)", r.opening],
    ["Plus credits", r.credits],
    ["Less fees", r.fees],
    ["Less refunds", r.refunds],
    ["Less adjustments", r.adjustments],
    ["Less paid out", r.paidOut],
    ["Plus external", r.external],
    ["Plus suspense", r.suspense],
    ["Closing (held by providers)", r.closing],
  ];
  async function* chunks(): AsyncGenerator<string, void, undefined> {
    yield (
      record(["Figure", "Amount (NGN)"]) +
      record(["From (Lagos day)", r.from]) +
      record(["To (Lagos day)", r.to]) +
      figures.map((f) => record(f)).join("") +
      record(["Ledger head", r.ledgerHead ? `${r.ledgerHead.sequence}:${r.ledgerHead.hash}` : ""])
    );
    yield (
      "\r\n" +
      record([
        "Exception ID",
        "Kind",
        "Settlement ID",
        "Payment reference",
        "Expected (NGN)",
        "Actual (NGN)",
        "Opened (UTC)",
        "Age (days)",
        "Resolved (UTC)",
        "Note",
        // Came later: last, so a sheet that reads the columns by position finds the others where they were.
        "Opened (Lagos time)",
        "Resolved (Lagos time)",
      ]) +
      r.exceptions
        .map((e) =>
          record([
            e.exceptionId,
            e.kind,
            e.settlementId,
            e.paymentReference,
            e.expected,
            e.actual,
            e.openedAt,
            e.age,
            e.resolvedAt,
            e.note,
            inLagosTime(e.openedAt),
            inLagosTime(e.resolvedAt),
          ]),
        )
        .join("")
    );
  }
  // Records after the first header: the period, the figures and the head, a blank line, the second header, the exceptions.
  return { total: 2 + figures.length + 1 + 2 + r.exceptions.length, chunks: chunks() };
}
