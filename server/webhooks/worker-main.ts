// `npm run worker`: the delivery worker as its own process (run it beside servers started with OWO_WORKER=off).
import { closeDatabase, migrateDatabase } from "../../db/client";
import { log } from "../logger";
import { settings, SettingsError } from "../settings";
import { startWorker } from "./worker";

function main() {
  try {
    settings();
  } catch (e) {
    if (e instanceof SettingsError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  migrateDatabase();
  const worker = startWorker();
  log.info({ database: settings().databasePath }, "callback worker started");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "callback worker stopping: finishing attempts in flight");
    await worker.stop();
    closeDatabase();
    log.info("callback worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main();
