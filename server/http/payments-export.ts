// GET /api/exports/payments: the dashboard's filtered payments as CSV, for the signed-in person's merchant and mode.
// Served by the front rather than Next, and streamed from a worker thread (server/payments/export-apart.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { ApiError, invalidFields } from "../api-error";
import { currentSession, parseCookies, userCaller } from "../auth/callers";
import { log } from "../logger";
import { exportPaymentsApart } from "../payments/export-apart";
import { filtersFromQuery } from "../payments/filters";
import { csvDownloadHeaders } from "./csv-download";
import { sendError } from "./envelope";

export async function servePaymentsExport(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== "GET") return sendError(res, new ApiError("S405", "Use GET to export payments"));
  const cookies = parseCookies(req.headers.cookie);
  const session = await currentSession(cookies);
  const caller = session ? await userCaller(session.userId, cookies, session.sessionId) : null;
  if (!caller) return sendError(res, new ApiError("S1", "Sign in to export payments"));
  const { filters, errors } = filtersFromQuery(new URL(req.url ?? "/", "http://owo").searchParams);
  if (errors.length) return sendError(res, invalidFields(errors));

  const exported = await exportPaymentsApart(caller, filters);
  res.on("close", exported.stop);
  for (const [k, v] of Object.entries(csvDownloadHeaders({ name: "payments", mode: caller.mode }))) res.setHeader(k, v);
  res.setHeader("x-total-count", String(exported.total));
  try {
    await pipeline(exported.body, res, { end: false });
  } catch {
    return; // the person cancelled the download: the thread is stopped with the response
  }
  const code = await exported.exited;
  if (code === 0) {
    res.end();
    return;
  }
  // Ended without the chunked terminator, so the browser reports a failed download rather than a shorter file.
  log.error({ code }, "payments export cut short");
  res.destroy();
}
