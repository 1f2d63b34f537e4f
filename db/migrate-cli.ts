// `npm run db:migrate`: applies the generated SQL migrations to DATABASE_URL: a SQLite file, or a PostgreSQL
// database (under the advisory lock, so it is safe beside instances starting at the same moment).
import { environment } from "../environment";
import { closeDatabase, migrateDatabase } from "./client";
import { databaseTargetOf, UnusableDatabaseUrl } from "./location";
import { migratePostgres } from "./postgres-migrations";

async function main(): Promise<void> {
  const target = databaseTargetOf(environment("databaseUrl"));
  if (target.dialect === "postgres") {
    await migratePostgres(target.url);
    console.log(`migrated ${new URL(target.url).host}${new URL(target.url).pathname}`);
    return;
  }
  await migrateDatabase();
  console.log(`migrated ${target.path}`);
  await closeDatabase();
}

main().catch((err: unknown) => {
  console.error(err instanceof UnusableDatabaseUrl ? err.message : err);
  process.exit(1);
});
