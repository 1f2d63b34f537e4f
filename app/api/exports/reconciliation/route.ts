// CSV of the reconciliation report for a period (?from=&to=, Lagos days), for the signed-in user's merchant and mode.
import { exportReportFor } from "@/server/reconciliation/report-export";
import { csvExport } from "../csv-response";

export const dynamic = "force-dynamic";

export const GET = csvExport("reconciliation", "Sign in to export the reconciliation report", (caller, query) =>
  exportReportFor(caller, { from: query.get("from"), to: query.get("to") }),
);
