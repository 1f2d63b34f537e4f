// The dashboard's CSV downloads answer alike: the signed-in person's export, refusals in API.md's envelope, and the
// file streamed chunk by chunk, the next read only when the client has taken the last one.
import type { UserCaller } from "@/server/auth/caller";
import { ApiError } from "@/server/api-error";
import { csvDownloadHeaders } from "@/server/http/csv-download";
import { errorJson } from "@/server/http/envelope";
import { pageCaller } from "@/server/trpc/page-caller";

/** What an export hands the download: its rows as CSV text, and how many when it counts them first. */
type Exported = { chunks: AsyncGenerator<string, void, undefined>; total?: number };

/**
 * A download's GET handler: signed out is refused with `signIn`'s words; `exportFor` reads the query and checks the
 * person's role (its ApiError answered as such); the file is owo-<name>-<mode>-….csv, with x-total-count when counted.
 */
export function csvExport(name: string, signIn: string, exportFor: (caller: UserCaller, query: URLSearchParams) => Promise<Exported>) {
  return async function GET(request: Request): Promise<Response> {
    const { caller } = await pageCaller();
    if (!caller) return refusal(new ApiError("S1", signIn));
    let exported: Exported;
    try {
      exported = await exportFor(caller, new URL(request.url).searchParams);
    } catch (err) {
      if (err instanceof ApiError) return refusal(err);
      throw err;
    }
    const counted: Record<string, string> = exported.total === undefined ? {} : { "x-total-count": String(exported.total) };
    return csvResponse(exported.chunks, { name, mode: caller.mode }, counted);
  };
}

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
