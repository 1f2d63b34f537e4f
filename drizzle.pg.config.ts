// drizzle-kit for PostgreSQL: db/tables-pg/*.ts → db/migrations-pg (SQLite's is drizzle.config.ts: db/tables/*.ts → db/migrations).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/tables-pg/*.ts",
  out: "./db/migrations-pg",
});
