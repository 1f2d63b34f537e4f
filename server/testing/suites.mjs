// Which test files run again on run.mjs's PostgreSQL pass: every file that starts an Owo in its own process — it calls
// the kit's startOwo, or a function that calls it, at any depth of the modules it imports — unless its header says
// `// dialect: sqlite only — <why>`. Found from the code rather than from a list of helper names: a list missed a
// helper that started Owo under another name (startLive) and the pass silently lost six suites (b3b268e). Owo
// processes a test spawns (testing/processes.ts) run on the database the test hands them, not the pass's.
// `node server/testing/suites.mjs <test files…>` prints those of them the pass runs.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";

const texts = new Map();
function text(file) {
  if (!texts.has(file)) texts.set(file, readFileSync(file, "utf8"));
  return texts.get(file);
}

const imported = new Map();
/** The repository's modules `file` imports (relative specifiers; packages are not Owo's and start none). */
function imports(file) {
  if (imported.has(file)) return imported.get(file);
  const found = [];
  for (const [, specifier] of text(file).matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)) {
    const base = normalize(join(dirname(file), specifier));
    const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, join(base, "index.ts")];
    const module = candidates.find((c) => /\.(ts|tsx|mjs|js)$/.test(c) && existsSync(c));
    if (module) found.push(module);
  }
  imported.set(file, found);
  return found;
}

function importedModules(file, seen = new Set()) {
  for (const module of imports(file))
    if (!seen.has(module)) {
      seen.add(module);
      importedModules(module, seen);
    }
  return seen;
}

const DECLARATION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)/;

/** The names `code` calls: `name(`. */
const called = (code) => new Set([...code.matchAll(/([\w$]+)\(/g)].map(([, name]) => name));

const declared = new Map();
/** A module's top-level declarations (formatted code starts them at column 0), each with what its text up to the next one calls. */
function declarations(module) {
  if (!declared.has(module)) {
    const found = [];
    for (const line of text(module).split("\n")) {
      const named = DECLARATION.exec(line);
      if (named) found.push({ name: named[1], code: "" });
      if (found.length) found[found.length - 1].code += `${line}\n`;
    }
    declared.set(
      module,
      found.map(({ name, code }) => ({ name, calls: called(code) })),
    );
  }
  return declared.get(module);
}

const callsAny = (calls, names) => [...names].some((name) => calls.has(name));

/** Whether `file` starts an Owo: it calls startOwo or any function of its imported modules that comes to call it. */
export function startsOwo(file) {
  const functions = [...importedModules(file)].flatMap(declarations);
  const starters = new Set(["startOwo"]);
  for (let grew = true; grew;) {
    grew = false;
    for (const f of functions)
      if (!starters.has(f.name) && callsAny(f.calls, starters)) {
        starters.add(f.name);
        grew = true;
      }
  }
  return callsAny(called(text(file)), starters);
}

const sqliteOnly = (file) => /^\/\/ dialect: sqlite only/m.test(text(file));

/** The PostgreSQL pass's files among `files`. */
export const postgresSuites = (files) => files.filter((f) => startsOwo(f) && !sqliteOnly(f));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(postgresSuites(process.argv.slice(2)).join("\n"));
