// `npm run db:migrate`: applies the generated SQL migrations to DATABASE_URL.
import { closeDatabase, migrateDatabase } from "./client";
import { databasePath } from "./location";

migrateDatabase();
console.log(`migrated ${databasePath()}`);
closeDatabase();
