// No import circles (#21): a circle makes a module's exports undefined while its partner loads, and two folders that
// import each other are one folder in disguise. Every import counts, type-only ones too, since a shape shared both
// ways is a seam left undecided. Tests are leaves and left out. The tables are the one exception: a payment names
// the provider account that issued it and an account's columns name payments, as the database's foreign keys do.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repo = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts") ? [path] : [];
  });
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const target = (from: string, spec: string): string | undefined => {
    const base = spec.startsWith("@/") ? join(repo, spec.slice(2)) : spec.startsWith(".") ? resolve(dirname(from), spec) : null;
    if (base === null) return undefined;
    return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((c) => known.has(c));
  };
  return new Map(
    files.map((f) => {
      const imported = ts.preProcessFile(readFileSync(f, "utf8"), true, true).importedFiles;
      return [f, [...new Set(imported.flatMap((i) => target(f, i.fileName) ?? []))]];
    }),
  );
}

/** Strongly connected components of more than one file (Tarjan): each is a circle, however it winds. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(repo, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test("no module imports itself back, through any number of others", () => {
  const files = ["server", "app", "db", "bench", "e2e"].flatMap((d) => (existsSync(join(repo, d)) ? sources(join(repo, d)) : []));
  assert.ok(files.length > 300, `read ${files.length} files`);
  const tables = (c: string[]) => c.every((f) => f.startsWith("db/tables/")) || c.every((f) => f.startsWith("db/tables-pg/"));
  assert.deepEqual(
    circles(importGraph(files)).filter((c) => !tables(c)),
    [],
  );
});

test("the finder sees a circle when there is one", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["a"]],
  ]);
  assert.deepEqual(
    circles(graph).map((c) => c.length),
    [3],
  );
});
