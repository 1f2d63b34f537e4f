// `npm run test:unit`: every *.test.ts beside the code, each file in its own process (own server, own temp database),
// first on SQLite; then every HTTP suite (the files that start a server) again on a throwaway PostgreSQL
// (server/testing/postgres-pass.ts). OWO_TEST_DB=sqlite or =postgres runs one pass only. A file that is about SQLite
// itself says `// dialect: sqlite only — <why>` and is left out of the PostgreSQL pass.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : find(path);
    return e.name.endsWith(".test.ts") ? [path] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length
  ? only
  : ["server", "db", "client", "bench"]
      .flatMap((d) => {
        try {
          return find(d);
        } catch {
          return [];
        }
      })
      .sort();
const passes = process.env.OWO_TEST_DB ? [process.env.OWO_TEST_DB] : only.length ? ["sqlite"] : ["sqlite", "postgres"];
const NODE_TEST = ["--test", "--test-concurrency=2", "--test-timeout=300000", "--test-reporter=spec"];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

let status = 0;
for (const pass of passes) {
  if (pass === "sqlite") {
    const result = spawnSync(process.execPath, ["--import", "tsx", ...NODE_TEST, ...files], { stdio: "inherit", env });
    status ||= result.status ?? 1;
  } else if (pass === "postgres") {
    const text = (f) => readFileSync(f, "utf8");
    const servers = files.filter((f) => /\bstartOwo\(|\bstartInitiating\(/.test(text(f)) && !/^\/\/ dialect: sqlite only/m.test(text(f)));
    console.log(`\n# PostgreSQL pass: ${servers.length} HTTP suites on a throwaway PostgreSQL\n`);
    const result = spawnSync(process.execPath, ["--import", "tsx", "server/testing/postgres-pass.ts", ...NODE_TEST, ...servers], {
      stdio: "inherit",
      env,
    });
    status ||= result.status ?? 1;
  } else {
    console.error(`OWO_TEST_DB: expected sqlite or postgres, got ${pass}`);
    status = 2;
  }
}
process.exit(status);
