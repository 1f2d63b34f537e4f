// CSV of the dashboard's filtered settlements list, for the signed-in user's merchant and mode, streamed page by page.
import { ApiError } from "@/server/api-error";
import { exportSettlementsFor } from "@/server/settlements/export";
import { settlementFilters } from "@/server/settlements/view";
import { pageCaller } from "@/server/trpc/page-caller";
import { csvResponse, refusal } from "../csv-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { caller } = await pageCaller();
  if (!caller) return refusal(new ApiError("S1", "Sign in to export settlements"));
  const filters = settlementFilters(new URL(request.url).searchParams);
  let exported;
  try {
    exported = await exportSettlementsFor(caller, filters);
  } catch (err) {
    if (err instanceof ApiError) return refusal(err);
    throw err;
  }
  return csvResponse(exported.chunks, { name: "settlements", mode: caller.mode }, { "x-total-count": String(exported.total) });
}
