// drizzle-kit for PostgreSQL: db/schema-pg.ts → db/migrations-pg (SQLite's is drizzle.config.ts → db/migrations).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
});
