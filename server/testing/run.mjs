// `npm run test:unit`: every *.test.ts beside the code, each file in its own process (own server, own temp database),
// first on SQLite; then every HTTP suite (the files that start an Owo, found by server/testing/suites.mjs) again on a
// throwaway PostgreSQL (server/testing/postgres-pass.ts). OWO_TEST_DB=sqlite or =postgres runs one pass only. A file
// that cannot run on PostgreSQL says `// dialect: sqlite only — <why>` and is left out of the PostgreSQL pass.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { postgresSuites } from "./suites.mjs";

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
// A file of server/several-instances/ is a drill of several Owo processes: it spends its time starting, killing and
// restarting processes (five at its start, two a round), which a loaded machine slows in proportion, and not on waits a
// moved clock could shorten. instance-deaths took 59–70 s to start its fleet and 80 + 38 s for its tests at load 25, so
// such a file (and its tests) is bounded at 15 minutes; every other file keeps 5.
const SUITE_TIMEOUT_MS = 300_000;
const DRILL_TIMEOUT_MS = 900_000;
const isDrill = (f) => f.split(/[\\/]/).includes("several-instances");
const nodeTest = (timeoutMs) => ["--test", "--test-concurrency=2", `--test-timeout=${timeoutMs}`, "--test-reporter=spec"];
// Set before a test file's first import: the logger reads LOG_LEVEL when it is imported (server/logger.ts), and test
// files import the server statically (harness.ts TEST_ENV sets the same for what it starts).
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: process.env.OWO_TEST_LOG_LEVEL ?? "silent" };

let status = 0;
for (const pass of passes) {
  if (pass === "sqlite") {
    const groups = [
      [files.filter((f) => !isDrill(f)), SUITE_TIMEOUT_MS],
      [files.filter(isDrill), DRILL_TIMEOUT_MS],
    ];
    for (const [group, timeoutMs] of groups.filter(([group]) => group.length)) {
      const result = spawnSync(process.execPath, ["--import", "tsx", ...nodeTest(timeoutMs), ...group], { stdio: "inherit", env });
      status ||= result.status ?? 1;
    }
  } else if (pass === "postgres") {
    const servers = postgresSuites(files);
    console.log(`\n# PostgreSQL pass: ${servers.length} HTTP suites on a throwaway PostgreSQL\n`);
    const result = spawnSync(
      process.execPath,
      ["--import", "tsx", "server/testing/postgres-pass.ts", ...nodeTest(SUITE_TIMEOUT_MS), ...servers],
      {
        stdio: "inherit",
        env,
      },
    );
    status ||= result.status ?? 1;
  } else {
    console.error(`OWO_TEST_DB: expected sqlite or postgres, got ${pass}`);
    status = 2;
  }
}
process.exit(status);
