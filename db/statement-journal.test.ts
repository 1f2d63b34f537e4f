// A batch of group-committed transactions (db/group-commit.ts) runs each body in a SAVEPOINT, and SQLite keeps the first
// image of every page a savepoint changes in a statement journal. Owo's write connection keeps that journal in memory:
// this build spills it to a temp file past 64 KiB, and writing it out cost every body of a batch (bench/README.md).
// dialect: sqlite only — SQLite's own journal, on SQLite's own store.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openSqlite } from "./sqlite-store";

const folder = mkdtempSync(join(tmpdir(), "owo-statement-journal-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** SQLite's temp files this process holds open (it unlinks them at once: only the descriptor shows them). */
function sqliteTempFiles(): string[] {
  return readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    })
    .filter((target) => target.includes("etilqs_"));
}

test("bodies of one batch that rewrite hundreds of pages keep their savepoint journal in memory, never in a temp file", async () => {
  const store = openSqlite(join(folder, "owo.db"));
  const raw = store.raw!;
  raw.exec("create table rows (id integer primary key, body text not null)");
  const insert = raw.prepare("insert into rows (body) values (?)");
  raw.transaction(() => {
    for (let i = 0; i < 4_000; i++) insert.run("a".repeat(200));
  })();
  const seen: string[][] = [];
  // Started in the same turn, so they share one batch: each body in its own SAVEPOINT.
  await Promise.all(
    Array.from({ length: 4 }, (_, part) =>
      store.transaction(async () => {
        raw.prepare("update rows set body = ? where id % 4 = ?").run("b".repeat(200), part);
        seen.push(sqliteTempFiles());
      }, "serializable"),
    ),
  );
  assert.equal(seen.length, 4);
  assert.deepEqual(seen.flat(), [], "no body's journal went to a temp file");
  assert.equal(raw.prepare("select count(*) from rows where body like 'b%'").pluck().get(), 4_000);
  await store.close();
});
