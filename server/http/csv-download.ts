// How every CSV download of the dashboard is named and cached, whichever door streams it.
import { clock } from "../clock";

/** `name` and the caller's mode make the file name, with the minute it was asked for: owo-<name>-<mode>-YYYYMMDD-HHMM.csv. */
export function csvDownloadHeaders(file: { name: string; mode: string }): Record<string, string> {
  const stamp = new Date(clock.now()).toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
  return {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="owo-${file.name}-${file.mode}-${stamp}.csv"`,
    "cache-control": "no-store",
  };
}
