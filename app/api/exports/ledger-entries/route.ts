// CSV of the ledger entries (server/books/journal.ts) for the signed-in user's merchant and mode, optionally Lagos days
// from/to, streamed batch by batch.
import { exportJournalFor } from "@/server/books/journal";
import { csvExport } from "../csv-response";

export const dynamic = "force-dynamic";

export const GET = csvExport("ledger", "Sign in to download the ledger", (caller, query) =>
  // Blank fields of the page's form mean "any day".
  exportJournalFor(caller, Object.fromEntries([...query].filter(([, value]) => value !== ""))),
);
