// `npm run worker`: the delivery worker and the mailer as their own process (run it beside servers started with OWO_WORKER=off).
import { closeDatabase, migrateDatabase } from "../../db/client";
import { log } from "../logger";
import { settings, SettingsError } from "../settings";
import { startMailerFromSettings } from "../mail/mailer";
import { startWorker } from "./worker";

async function main() {
  try {
    settings();
  } catch (e) {
    if (e instanceof SettingsError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  await migrateDatabase();
  const worker = startWorker();
  const mailer = startMailerFromSettings();
  log.info({ database: settings().database, mail: mailer ? "smtp" : "kept in the outbox (no OWO_SMTP_URL)" }, "callback worker started");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "callback worker stopping: finishing attempts in flight");
    await Promise.all([worker.stop(), mailer?.stop()]);
    await closeDatabase();
    log.info("callback worker stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

void main();
