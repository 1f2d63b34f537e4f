// Starting Owo as a person does: among the JSON log lines, one plain line says which address to open, on the PORT given.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { freePort, tempDataDir } from "./testing/harness";
import { databaseIn, spawnOwo, type OwoProcess } from "./testing/processes";

const dataDir = tempDataDir();
const started: OwoProcess[] = [];
after(async () => {
  for (const owo of started) {
    owo.child.kill("SIGTERM");
    await owo.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test("with PORT alone, start-up prints the localhost address on that port", async () => {
  const port = await freePort();
  // No OWO_PUBLIC_URL, as in the demo: it follows PORT (Node's spawn leaves out an undefined variable).
  const owo = await spawnOwo(databaseIn(dataDir), { OWO_PUBLIC_URL: undefined as unknown as string }, port);
  started.push(owo);
  assert.ok(owo.output().split("\n").includes(`Owo is ready: open http://localhost:${port}`), owo.output());
});

test("behind a public address, start-up names both", async () => {
  const port = await freePort();
  const owo = await spawnOwo(databaseIn(dataDir), { OWO_PUBLIC_URL: "https://pay.example.ng" }, port);
  started.push(owo);
  assert.match(
    owo.output(),
    new RegExp(`^Owo is ready on http://localhost:${port}; open https://pay.example.ng \\(OWO_PUBLIC_URL\\)`, "m"),
  );
});
