// CSV of the lines of the dashboard's filtered settlements, each with its settlement, streamed page by page.
import { exportSettlementLinesFor } from "@/server/settlements/export";
import { settlementFilters } from "@/server/settlements/view";
import { csvExport } from "../csv-response";

export const dynamic = "force-dynamic";

export const GET = csvExport("settlement-lines", "Sign in to export settlement lines", (caller, query) =>
  exportSettlementLinesFor(caller, settlementFilters(query)),
);
