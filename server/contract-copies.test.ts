// The repo carries its own copies of the contract (docs/) and its fixtures (docs/examples, server/providers/banks.json),
// so a clone stands alone. Where the shared contract folder sits beside the repo (../shared), the copies must match it.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = join(repo, "..", "shared");
const present = existsSync(join(shared, "API.md"));
if (!present)
  console.log(`SKIPPED: no ${shared} beside the repo, so its copies in docs/ and server/providers/banks.json are not compared.`);

const read = (...path: string[]) => readFileSync(join(...path), "utf8");

test("docs/API.md, DESIGN.md and STYLE.md are the shared contract's own text", { skip: present ? false : `no ${shared}` }, () => {
  for (const name of ["API.md", "DESIGN.md", "STYLE.md"])
    assert.equal(read(repo, "docs", name), read(shared, name), `docs/${name} differs from ${join(shared, name)}`);
});

test("docs/examples holds every shared example, unchanged", { skip: present ? false : `no ${shared}` }, () => {
  const names = readdirSync(join(shared, "examples")).sort();
  assert.deepEqual(readdirSync(join(repo, "docs", "examples")).sort(), names);
  for (const name of names)
    assert.equal(read(repo, "docs", "examples", name), read(shared, "examples", name), `docs/examples/${name} differs`);
});

test("server/providers/banks.json lists the shared banks.json's banks", { skip: present ? false : `no ${shared}` }, () => {
  const ours = JSON.parse(read(repo, "server", "providers", "banks.json")) as { banks: unknown[] };
  const theirs = JSON.parse(read(shared, "banks.json")) as { banks: unknown[] };
  assert.deepEqual(ours.banks, theirs.banks);
});
