// The thread an export runs in (export-apart.ts starts one per download): no Next, no server, only the data layer, in
// a V8 heap of its own. It posts the total, then one chunk of CSV each time the server asks for more, so it is at most
// one batch ahead however slowly the download goes.
import { parentPort, workerData } from "node:worker_threads";
import { closeDatabase } from "../../db/client";
import { exportPayments } from "./export";
import type { ExportJob, ThreadMessage } from "./export-apart";

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("export-thread.ts runs as a worker thread (export-apart.ts)");
  const post = (message: ThreadMessage) => port.postMessage(message);
  // Asks that came before the thread was ready to answer them are kept, not lost. It starts one chunk ahead, so the
  // next batch is read while the server sends the last one (one ask at a time left it idle at each hand-over).
  let asked = 1;
  let wake: (() => void) | undefined;
  port.on("message", () => {
    asked++;
    wake?.();
  });
  const nextAsk = async () => {
    while (asked === 0) await new Promise<void>((resolve) => (wake = resolve));
    asked--;
  };

  const job = workerData as ExportJob;
  const { total, chunks } = await exportPayments(job.scope, job.filters);
  post({ total });
  for await (const chunk of chunks) {
    await nextAsk();
    post({ chunk });
  }
  post({ end: true });
  await closeDatabase();
  // The server may still ask once more after the end: the thread need not wait for it.
  port.unref();
}

main().catch((err: unknown) => {
  console.error(err);
  // In a worker thread this ends the thread alone, with the code export-apart.ts reads as a failed export.
  process.exit(1);
});
