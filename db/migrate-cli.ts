// `npm run db:migrate`: applies the generated SQL migrations to DATABASE_URL.
import { closeDatabase, migrateDatabase } from "./client";
import { settings } from "../server/settings";

migrateDatabase();
console.log(`migrated ${settings().databasePath}`);
closeDatabase();
