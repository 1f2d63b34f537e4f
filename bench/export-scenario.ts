// The CSV export of a whole history: time to the last byte, and the peak RSS meanwhile of the server (the export runs
// in a worker thread of it, server/payments/export-apart.ts) and of any process the server started meanwhile.
import { encode } from "next-auth/jwt";
import { startSession } from "../server/auth/sessions";
import { childPids, peakRssBytes, resetPeakRss, rssBytes, type Child } from "./processes";
import type { Outcome } from "./report";
import { unavailable } from "./scenarios";

const EXPORT_PATH = "/api/exports/payments";

/**
 * The route serves signed-in users only. The bench starts a session as sign-in does and mints the cookie next-auth
 * itself would set for it (same secret, read from the server's data folder), rather than driving the sign-in form.
 */
async function sessionCookie(userId: string, email: string, authSecret: string): Promise<string> {
  const { id } = await startSession(userId, { ip: "127.0.0.1", userAgent: "Owo bench" });
  return `next-auth.session-token=${await encode({ token: { sub: userId, email, sid: id }, secret: authSecret })}`;
}

export async function measureExport(owo: Child, owner: { userId: string; email: string }, authSecret: string): Promise<Outcome> {
  const scenario = "CSV export, whole history";
  const pid = owo.child.pid;
  if (pid === undefined) throw new Error("server has no pid");
  // The server bundles the checkout's assets and the export thread's code once it listens, each in an esbuild process
  // (up to ~60 MB) that ends with its bundle: the export is measured on the server at rest, after them.
  for (let i = 0; i < 600 && childPids(pid).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const rssBefore = rssBytes(pid);
  const exact = resetPeakRss(pid);
  // A child's own high-water mark is its peak (it would start with the export); read every 100 ms until the end.
  let childPeak: number | null = null;
  const watch = setInterval(() => {
    for (const child of childPids(pid)) childPeak = Math.max(childPeak ?? 0, peakRssBytes(child) ?? 0);
  }, 100);
  const started = process.hrtime.bigint();
  const res = await fetch(owo.url + EXPORT_PATH, { headers: { cookie: await sessionCookie(owner.userId, owner.email, authSecret) } });
  if (res.status === 404) return unavailable(scenario, "owo", `${EXPORT_PATH} is not served yet`);
  if (!res.ok || !res.body) return unavailable(scenario, "owo", `${res.status} ${(await res.text()).slice(0, 200)}`);
  let bytes = 0;
  let lines = 0;
  const reader = res.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    bytes += chunk.value.length;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(watch);
  const rows = lines - 1;
  const announced = Number(res.headers.get("x-total-count"));
  if (announced !== rows) console.log(`  export announced ${announced} rows and sent ${rows}`);
  const peak = peakRssBytes(pid);
  const mb = (b: number | null) => (b === null ? "n/a" : `${(b / 1048576).toFixed(0)} MB`);
  const rss = `${mb(rssBefore)} before, peak ${mb(peak)}${exact ? "" : " (since start: could not reset the mark)"}`;
  console.log(
    `  owo   ${scenario.padEnd(34)} ${rows} rows, ${mb(bytes)} in ${seconds.toFixed(1)} s; server RSS ${rss}; other processes' peak ${mb(childPeak)}`,
  );
  return {
    kind: "export",
    scenario,
    server: "owo",
    rows,
    bytes,
    seconds,
    rssBeforeBytes: rssBefore,
    peakRssBytes: peak,
    exportProcessPeakBytes: childPeak,
  };
}
