import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/tables/*.ts",
  out: "./db/migrations",
  dbCredentials: { url: process.env.DATABASE_URL ?? "./data/owo.db" },
});
