// The PostgreSQL pass's choice of files (server/testing/suites.mjs), asked as run.mjs asks it: by the code that starts
// an Owo, whatever a kit helper calls itself, and never a file that says it is for SQLite only.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";

const passOf = (files: string[]) =>
  execFileSync(process.execPath, [join(import.meta.dirname, "suites.mjs"), ...files], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);

// The kit's name, joined here so that this file's own text calls no startOwo and is no suite of the pass itself.
const START = ["start", "Owo"].join("");

test("a suite that starts Owo through helpers of any name, at any depth, is on the pass; one that says sqlite only is not", () => {
  const dir = mkdtempSync(join(tmpdir(), "owo-suites-"));
  try {
    const files: Record<string, string> = {
      "harness.ts": `export async function ${START}() {\n  return {};\n}\n`,
      "shop.ts": [
        `import { ${START} } from "./harness";`,
        'export const order = { amount: "1500" };',
        "export async function openShop() {",
        `  return ${START}();`,
        "}",
      ].join("\n"),
      "world.ts": 'import { openShop } from "./shop";\nexport function aWorld() {\n  before(() => openShop());\n}\n',
      "world.test.ts": 'import { aWorld } from "./world";\naWorld();\n',
      "shop.test.ts": 'import { openShop } from "./shop.ts";\nawait openShop();\n',
      "order.test.ts": 'import { order } from "./shop";\nassert.equal(order.amount, "1500");\n',
      "file.test.ts": '// dialect: sqlite only — reads the SQLite file itself\nimport { openShop } from "./shop";\nawait openShop();\n',
    };
    for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, name), code);
    const tests = Object.keys(files).filter((f) => f.endsWith(".test.ts"));
    assert.deepEqual(
      passOf(tests.map((f) => join(dir, f))),
      ["world.test.ts", "shop.test.ts"].map((f) => join(dir, f)),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the repository's own: liveSuite and refundShop files are on the pass, a unit test and a sqlite-only suite are not", () => {
  const files = [
    "server/settlements/live-paystack.test.ts",
    "server/payments/refund-races.test.ts",
    "server/payments/history.test.ts",
    "server/money.test.ts",
  ];
  assert.deepEqual(passOf(files), files.slice(0, 2));
});
