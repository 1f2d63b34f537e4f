// CSV of the lines of the dashboard's filtered settlements, each with its settlement, streamed page by page.
import { ApiError } from "@/server/api-error";
import { exportSettlementLinesFor } from "@/server/settlements/export";
import { settlementFilters } from "@/server/settlements/view";
import { pageCaller } from "@/server/trpc/page-caller";
import { csvResponse, refusal } from "../csv-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { caller } = await pageCaller();
  if (!caller) return refusal(new ApiError("S1", "Sign in to export settlement lines"));
  const filters = settlementFilters(new URL(request.url).searchParams);
  let exported;
  try {
    exported = await exportSettlementLinesFor(caller, filters);
  } catch (err) {
    if (err instanceof ApiError) return refusal(err);
    throw err;
  }
  return csvResponse(exported.chunks, { name: "settlement-lines", mode: caller.mode }, { "x-total-count": String(exported.total) });
}
