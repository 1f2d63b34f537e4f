// Which database answers, in the app's own words: on the PostgreSQL pass of the test run (server/testing/run.mjs)
// /api/ready must name PostgreSQL and its version(), so that pass cannot quietly run on SQLite.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, startOwo, type Owo } from "../testing/harness";

let owo: Owo;
before(async () => {
  owo = await startOwo();
});
after(() => owo.stop());

test("readiness names the database this run is on, with that database's own version", async () => {
  const ready = await call(owo, "GET", "/api/ready");
  assert.equal(ready.status, 200, ready.text);
  if (process.env.OWO_TEST_POSTGRES_URL) {
    assert.equal(ready.json.database.dialect, "postgres");
    assert.match(ready.json.database.version, /^PostgreSQL \d+/);
  } else {
    assert.equal(ready.json.database.dialect, "sqlite");
    assert.match(ready.json.database.version, /^3\.\d+/);
  }
  assert.equal(ready.json.migrations.applied, ready.json.migrations.expected);
});
