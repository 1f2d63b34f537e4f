// The PostgreSQL pass of the test run (server/testing/run.mjs): one throwaway PostgreSQL for the whole pass, each test
// file making its own database on it (harness.ts `testDatabase`). No initdb is a failure, never a skip.
import { spawnSync } from "node:child_process";
import { startPostgres } from "../../db/throwaway-postgres";

const server = await startPostgres();
let status = 1;
try {
  const admin = server.databaseUrl("postgres");
  // DATABASE_URL names PostgreSQL from the first import, so db/schema.ts picks PostgreSQL's tables in every file.
  const env = { ...process.env, OWO_TEST_POSTGRES_URL: admin, DATABASE_URL: admin };
  status = spawnSync(process.execPath, ["--import", "tsx", ...process.argv.slice(2)], { stdio: "inherit", env }).status ?? 1;
} finally {
  server.stop();
}
process.exit(status);
