// CSV of the reconciliation report for a period (?from=&to=, Lagos days), for the signed-in user's merchant and mode.
import { ApiError } from "@/server/api-error";
import { exportReportFor } from "@/server/reconciliation/report-export";
import { pageCaller } from "@/server/trpc/page-caller";
import { csvResponse, refusal } from "../csv-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { caller } = await pageCaller();
  if (!caller) return refusal(new ApiError("S1", "Sign in to export the reconciliation report"));
  const params = new URL(request.url).searchParams;
  let exported;
  try {
    exported = await exportReportFor(caller, { from: params.get("from"), to: params.get("to") });
  } catch (err) {
    if (err instanceof ApiError) return refusal(err);
    throw err;
  }
  return csvResponse(exported.chunks, { name: "reconciliation", mode: caller.mode }, { "x-total-count": String(exported.total) });
}
