// CSV of the dashboard's filtered settlements list, for the signed-in user's merchant and mode, streamed page by page.
import { exportSettlementsFor } from "@/server/settlements/export";
import { settlementFilters } from "@/server/settlements/view";
import { csvExport } from "../csv-response";

export const dynamic = "force-dynamic";

export const GET = csvExport("settlements", "Sign in to export settlements", (caller, query) =>
  exportSettlementsFor(caller, settlementFilters(query)),
);
