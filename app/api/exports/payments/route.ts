// CSV export of the dashboard's filtered payments list, for the signed-in user's merchant and mode, streamed batch by batch.
import { ApiError, invalidFields } from "@/server/api-error";
import { errorJson } from "@/server/http/envelope";
import { exportPaymentsFor } from "@/server/payments/export";
import { filtersFromQuery } from "@/server/payments/history";
import { clock } from "@/server/clock";
import { pageCaller } from "@/server/trpc/page-caller";

export const dynamic = "force-dynamic";

/** Refusals in API.md's envelope, as every other door answers. */
const refusal = (err: ApiError) =>
  new Response(errorJson(err), {
    status: err.httpStatus,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

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
  const { total, chunks } = exported;
  const encoder = new TextEncoder();
  // Pull-driven: the next batch is read only when the client has taken the last one.
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  const stamp = new Date(clock.now()).toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="owo-payments-${caller.mode}-${stamp}.csv"`,
      "cache-control": "no-store",
      "x-total-count": String(total),
    },
  });
}
