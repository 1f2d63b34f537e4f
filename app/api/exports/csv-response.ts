// The dashboard's CSV downloads answer alike: refusals in API.md's envelope, and the file streamed chunk by chunk,
// the next read only when the client has taken the last one.
import type { ApiError } from "@/server/api-error";
import { csvDownloadHeaders } from "@/server/http/csv-download";
import { errorJson } from "@/server/http/envelope";

export function refusal(err: ApiError): Response {
  return new Response(errorJson(err), {
    status: err.httpStatus,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

/** Named as csvDownloadHeaders names every download: owo-<name>-<mode>-YYYYMMDD-HHMM.csv. */
export function csvResponse(
  chunks: AsyncGenerator<string, void, undefined>,
  file: { name: string; mode: string },
  headers: Record<string, string> = {},
): Response {
  const encoder = new TextEncoder();
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
  return new Response(body, { headers: { ...csvDownloadHeaders(file), ...headers } });
}
