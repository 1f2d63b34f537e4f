// Reconciliation for the dashboard: the same core as GET /api/v2/reconciliation, the resolve and bank-statement doors.
import { z } from "zod";
import { parseFields } from "../../api-error";
import { importBankStatement, previewBankStatement } from "../../reconciliation/bank-statements";
import { exceptionQuery, exceptionView, listExceptions } from "../../reconciliation/exceptions";
import { reconciliationReport, reportQuery } from "../../reconciliation/report";
import { resolveException, resolveInput } from "../../reconciliation/resolve";
import { parseStatement, statementFromCsv } from "../../reconciliation/statement-lines";
import { merchantProcedure, router } from "../init";

const managing = merchantProcedure("reconciliation.manage");

export const reconciliationRouter = router({
  report: merchantProcedure("read")
    .input(reportQuery)
    .query(({ ctx, input }) => reconciliationReport(ctx.scope, input)),
  exceptions: merchantProcedure("read")
    .input(z.unknown())
    .query(({ ctx, input }) => listExceptions(ctx.scope, parseFields(exceptionQuery, input ?? {}))),
  /** The core writes the audit row itself, in the resolve's own transaction, with the person's userId. */
  resolve: managing.input(resolveInput.extend({ exceptionId: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const { exceptionId, ...body } = input;
    const userId = ctx.caller.kind === "user" ? ctx.caller.userId : null;
    return exceptionView(await resolveException(ctx.scope, exceptionId, body, userId));
  }),
  /** What the upload would match, rolled back: the page shows it before the person imports. */
  previewStatement: managing
    .input(z.object({ accountNumber: z.string().max(20), csv: z.string().max(2_000_000) }))
    .mutation(({ ctx, input }) => previewBankStatement(ctx.scope, parseStatement(statementFromCsv(input.accountNumber, input.csv)))),
  /** The dashboard's CSV upload (date,amount,reference,narration): the same import as POST /api/v2/bank-statements. */
  importStatement: managing
    .input(z.object({ accountNumber: z.string().max(20), csv: z.string().max(2_000_000) }))
    .mutation(({ ctx, input }) => importBankStatement(ctx.scope, parseStatement(statementFromCsv(input.accountNumber, input.csv)))),
});
