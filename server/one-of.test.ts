// oneOf: "the column is one of these values" as one parameter, on the database this pass runs (SQLite, or PostgreSQL on
// run.mjs's second pass), for numbers and for text that an array literal or JSON must quote.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { asc } from "drizzle-orm";
import { createTestMerchant, startOwo, type Owo } from "./testing/harness";
import { db } from "../db/client";
import { oneOf } from "../db/functions";
import { merchants } from "../db/schema";

let owo: Owo;
before(async () => (owo = await startOwo()));
after(() => owo.stop());

test("a row is found by any of a list of values, however they must be quoted, and by none of an empty list", async () => {
  const names = ['Ade, "Best" Foods', "O'Brien {Lagos}", "Back\\slash Stores", "Plain"];
  const made = await Promise.all(names.map((name) => createTestMerchant(name)));
  const found = await db()
    .select({ id: merchants.id, name: merchants.name })
    .from(merchants)
    .where(oneOf(merchants.name, names.slice(0, 3)))
    .orderBy(asc(merchants.name));
  assert.deepEqual(
    found.map((m) => m.name),
    [...names.slice(0, 3)].sort(),
  );
  const ids = made.map((m) => m.merchantId);
  assert.equal((await db().select().from(merchants).where(oneOf(merchants.id, ids))).length, 4);
  assert.equal((await db().select().from(merchants).where(oneOf(merchants.id, []))).length, 0);
});
