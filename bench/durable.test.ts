// `npm run bench -- --durable`: the bench's PostgreSQL syncs its WAL at every commit as a deployment's does, and without
// the flag runs as the tests run it; a posting cost read on the wrong one would be reported under the other's name.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { onPostgres } from "../db/throwaway-postgres";
import { openBenchDatabase } from "./databases";

async function settingsOf(durable: boolean): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "owo-bench-durable-"));
  const database = await openBenchDatabase("postgres", dir, { durable });
  try {
    return await onPostgres(database.url, async (client) => {
      const shown: string[] = [];
      for (const name of ["fsync", "synchronous_commit", "full_page_writes"])
        shown.push(`${name}=${(await client.query<Record<string, string>>(`show ${name}`)).rows[0]?.[name]}`);
      return shown;
    });
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test("--durable: the bench's PostgreSQL syncs its WAL at commit; without it, it runs as the tests do", async () => {
  assert.deepEqual(await settingsOf(true), ["fsync=on", "synchronous_commit=on", "full_page_writes=on"]);
  assert.deepEqual(await settingsOf(false), ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]);
});
