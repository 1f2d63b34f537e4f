// The process an export runs in (export-process.ts starts one per download): no Next, no server, only the data layer.
// It writes the total and a newline, then the CSV, to file descriptor 3, waiting whenever the reader is behind; stdout
// and stderr stay the server's log.
import { Socket } from "node:net";
import { once } from "node:events";
import { closeDatabase } from "../../db/client";
import { exportPayments } from "./export";
import type { ExportJob } from "./export-process";

async function main(): Promise<void> {
  // What `ps` shows for it beside the server.
  process.title = "owo-export";
  const job = JSON.parse(process.argv[2] ?? "null") as ExportJob;
  const out = new Socket({ fd: 3, readable: false });
  // The reader hung up (the download was cancelled): nothing is left to do.
  out.on("error", () => process.exit(0));
  const { total, chunks } = await exportPayments(job.scope, job.filters);
  out.write(`${total}\n`);
  for await (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, "drain");
  }
  await new Promise<void>((resolve) => out.end(resolve));
  await closeDatabase();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
