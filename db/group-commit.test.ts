// Group commit on a real SQLite file: transactions waiting together share one COMMIT, yet each caller hears only of its
// own body, and nobody hears "done" before the shared COMMIT has succeeded.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import Database from "better-sqlite3";
import { groupCommitter } from "./group-commit";

const folder = mkdtempSync(join(tmpdir(), "owo-group-commit-"));
after(() => rmSync(folder, { recursive: true, force: true }));

function database(name: string) {
  const path = join(folder, name);
  const writer = new Database(path);
  writer.pragma("journal_mode = WAL");
  writer.pragma("foreign_keys = ON");
  // Auto-checkpoints would empty the WAL whose frames the first test counts.
  writer.pragma("wal_autocheckpoint = 0");
  writer.exec(`create table owners (id integer primary key);
    create table items (id integer primary key, name text not null unique,
      owner integer references owners(id) deferrable initially deferred)`);
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(task: () => Promise<T>) => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
  const reader = new Database(path, { readonly: true });
  const names = () => (reader.prepare("select name from items order by id").all() as { name: string }[]).map((r) => r.name);
  return { writer, names, together: groupCommitter(writer, inTurn) };
}

const insert = (writer: Database.Database, name: string, owner: number | null = null) =>
  writer.prepare("insert into items (name, owner) values (?, ?)").run(name, owner);

test("forty transactions started together commit as a few, and each body sees those before it", async () => {
  const { writer, names, together } = database("many.db");
  const frames = () => (writer.pragma("wal_checkpoint(PASSIVE)") as { log: number }[])[0]?.log ?? 0;
  const before = frames();
  const seen = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      together(async () => {
        insert(writer, `item ${i}`);
        return (writer.prepare("select count(*) as n from items").get() as { n: number }).n;
      }),
    ),
  );
  assert.deepEqual(
    seen,
    Array.from({ length: 40 }, (_, i) => i + 1),
  );
  assert.equal(names().length, 40);
  // One COMMIT each would append at least one WAL frame each (40); shared, the table's page is written a few times.
  assert.ok(frames() - before < 10, `${frames() - before} WAL frames for 40 one-row transactions`);
});

test("a body that throws loses only its own writes; its caller gets its error, the others theirs", async () => {
  const { writer, names, together } = database("one-fails.db");
  const answers = await Promise.allSettled([
    together(async () => insert(writer, "first").changes),
    together(async () => {
      insert(writer, "doomed");
      throw new Error("the second changed its mind");
    }),
    together(async () => insert(writer, "first").changes), // a unique violation: this body's statement fails
    together(async () => insert(writer, "last").changes),
  ]);
  assert.deepEqual(
    answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as Error).message)),
    [1, "the second changed its mind", "UNIQUE constraint failed: items.name", 1],
  );
  assert.deepEqual(names(), ["first", "last"]);
  assert.equal(writer.inTransaction, false);
});

test("when the shared COMMIT fails, no caller hears success and nothing of the batch stays", async () => {
  const { writer, names, together } = database("commit-fails.db");
  await together(async () => insert(writer, "before"));
  const answers = await Promise.allSettled([
    together(async () => insert(writer, "innocent").changes),
    // Checked at COMMIT only: the owner does not exist.
    together(async () => insert(writer, "orphan", 99).changes),
    together(async () => insert(writer, "bystander").changes),
  ]);
  assert.deepEqual(
    answers.map((a) => a.status),
    ["rejected", "rejected", "rejected"],
  );
  assert.match(String((answers[0] as PromiseRejectedResult).reason), /FOREIGN KEY constraint failed/);
  assert.deepEqual(names(), ["before"]);
  // The writer is usable again.
  await together(async () => insert(writer, "after"));
  assert.deepEqual(names(), ["before", "after"]);
});
