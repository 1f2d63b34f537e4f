// The process: settings, migrations, the Node front with Next behind it, the sweeper and the delivery worker.
import next from "next";
import { closeDatabase, migrateDatabase } from "../db/client";
import { createFront } from "./http/front";
import { log } from "./logger";
import { settings, SettingsError } from "./settings";

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
  // next-auth v4 reads these names; they follow our own settings so PORT and OWO_PUBLIC_URL keep redirects right.
  process.env.NEXTAUTH_URL = s.publicUrl;
  process.env.NEXTAUTH_SECRET = s.authSecret;

  migrateDatabase();
  const dev = process.argv.includes("--dev");
  const app = next({ dev, dir: process.cwd() });
  await app.prepare();
  const pages = app.getRequestHandler();
  const server = createFront((req, res) => pages(req, res));
  const background = await import("./background").then((m) => m.startBackground());

  server.listen(s.port, () => log.info({ port: s.port, publicUrl: s.publicUrl, database: s.databasePath }, "owo listening"));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing requests in flight");
    const hardStop = setTimeout(() => process.exit(1), 20_000);
    hardStop.unref();
    server.close(async () => {
      await background.stop();
      closeDatabase();
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
