// The process: settings, migrations, the Node front with Next behind it, the sweeper and the delivery worker.
import next from "next";
import { closeDatabase, migrateDatabase } from "../db/client";
import { tellNextAuth } from "../environment";
import { createFront, type PageHandler } from "./http/front";
import { log } from "./logger";
import { settings, SettingsError } from "./settings";
import { startTracing } from "./traces";
import { openBooks } from "./books/opening";
import { checkoutAssets } from "./checkout-page/assets";
import { exportThreadCode } from "./payments/export-apart";

/**
 * Next renders the pages; OWO_PAGES=off runs an API-only process (REST, tRPC, health) with no build needed.
 * Next forwards a server action posted to the wrong page to the page that has it, over HTTP to its own hostname and
 * port: told nothing, it assumes 127.0.0.1:3000, which may be another program. Told ours, the call comes back here.
 */
async function pageHandler(port: number, pages: boolean): Promise<PageHandler | null> {
  if (!pages) return null;
  const app = next({ dev: process.argv.includes("--dev"), dir: process.cwd(), hostname: "127.0.0.1", port });
  await app.prepare();
  const handle = app.getRequestHandler();
  return (req, res) => handle(req, res);
}

/** What a person who started Owo reads among the JSON log lines: the address to open. */
function openLine(port: number, publicUrl: string): string {
  const local = `http://localhost:${port}`;
  if (publicUrl === local) return `Owo is ready: open ${local}`;
  return `Owo is ready on ${local}; open ${publicUrl} (OWO_PUBLIC_URL), the address customers and providers reach`;
}

async function main() {
  let s;
  try {
    s = settings();
  } catch (e) {
    if (e instanceof SettingsError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  tellNextAuth(s.publicUrl, s.authSecret);

  try {
    await migrateDatabase();
  } catch (e) {
    // An unreachable or refusing database stops start-up with the setting named, not a stack trace.
    console.error(`DATABASE_URL: ${s.database} could not be opened and migrated: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  // Payments from before the ledger existed are booked once, before anyone can read the balances.
  await openBooks();
  const tracing = await startTracing(s.otlpEndpoint, "owo");
  const server = createFront(await pageHandler(s.port, s.pages));
  const background = await import("./background").then((m) => m.startBackground());

  server.listen(s.port, () => {
    log.info({ port: s.port, publicUrl: s.publicUrl, database: s.database }, "owo listening");
    process.stdout.write(`${openLine(s.port, s.publicUrl)}\n`);
    // The checkout's script and stylesheet are bundled now, so the first customer does not wait for esbuild.
    checkoutAssets().catch((err: unknown) => log.warn({ err }, "checkout assets not built yet; the first checkout will try again"));
    // And the export thread's code, so no esbuild process runs beside an export's thread (bench/README.md).
    exportThreadCode().catch((err: unknown) => log.warn({ err }, "export thread not built yet; the first export will try again"));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing requests in flight");
    const hardStop = setTimeout(() => process.exit(1), 20_000);
    hardStop.unref();
    server.close(async () => {
      await background.stop();
      await tracing?.stop();
      await closeDatabase();
      log.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err: unknown) => {
  log.fatal({ err }, "failed to start");
  process.exit(1);
});
