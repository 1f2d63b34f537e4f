// CSV of the ledger entries (server/books/journal.ts) for the signed-in user's merchant and mode, optionally Lagos days
// from/to, streamed batch by batch.
import { ApiError } from "@/server/api-error";
import { exportJournalFor } from "@/server/books/journal";
import { pageCaller } from "@/server/trpc/page-caller";
import { csvResponse, refusal } from "../csv-response";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const { caller } = await pageCaller();
  if (!caller) return refusal(new ApiError("S1", "Sign in to download the ledger"));
  // Blank fields of the page's form mean "any day".
  const query = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  let exported;
  try {
    exported = await exportJournalFor(caller, query);
  } catch (err) {
    if (err instanceof ApiError) return refusal(err);
    throw err;
  }
  return csvResponse(exported.chunks, { name: "ledger", mode: caller.mode });
}
