// CSV export of the dashboard's filtered payments list, for the signed-in user's merchant and mode, streamed batch by batch.
import { ApiError, invalidFields } from "@/server/api-error";
import { exportPaymentsFor } from "@/server/payments/export";
import { filtersFromQuery } from "@/server/payments/history";
import { pageCaller } from "@/server/trpc/page-caller";
import { csvResponse, refusal } from "../csv-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { caller } = await pageCaller();
  if (!caller) return refusal(new ApiError("S1", "Sign in to export payments"));
  const { filters, errors } = filtersFromQuery(new URL(request.url).searchParams);
  if (errors.length) return refusal(invalidFields(errors));

  let exported;
  try {
    exported = await exportPaymentsFor(caller, filters);
  } catch (err) {
    if (err instanceof ApiError) return refusal(err);
    throw err;
  }
  return csvResponse(exported.chunks, { name: "payments", mode: caller.mode }, { "x-total-count": String(exported.total) });
}
