// Whatever a procedure answers, the wire carries exactly what superjson alone would write.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import superjson from "superjson";
import { isPlainJson, transformer } from "./transformer";

/** The JSON written, or superjson's refusal (it refuses keys such as __proto__): both must agree either way. */
function written(serialize: () => unknown): string {
  try {
    return JSON.stringify(serialize());
  } catch (e) {
    return `refused: ${e instanceof Error ? e.message : String(e)}`;
  }
}

const same = (value: unknown) =>
  assert.equal(
    written(() => transformer.output.serialize(value)),
    written(() => superjson.serialize(value)),
  );

test("answers that are not plain JSON go through superjson, meta and all", () => {
  class Point {
    constructor(readonly x: number) {}
  }
  const sparse = [1, 2];
  delete sparse[0];
  const values = [
    undefined,
    -0,
    NaN,
    Infinity,
    new Date(0),
    new Map([["a", 1]]),
    new Set([1]),
    10n,
    /x/g,
    new Point(1),
    Object.create(null),
    sparse,
    { a: undefined },
    { nested: [{ at: new Date(5) }] },
  ];
  values.forEach((value, i) => {
    same(value);
    assert.equal(isPlainJson(value), false, `value #${i}`);
  });
});

test("plain answers — any JSON value, and a list page as the dashboard gets it — are written as superjson writes them", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => same(value)),
    { numRuns: 500 },
  );
  const page = {
    items: Array.from({ length: 50 }, (_, i) => ({ paymentReference: `ord-${i}`, amount: "1500.00", paidAt: null, status: "SUCCESSFUL" })),
    nextCursor: "1.2",
  };
  assert.equal(isPlainJson(page), true);
  same(page);
});

test("what it writes reads back as superjson's own writing does", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), fc.date({ noInvalidDate: true }), fc.record({ at: fc.date({ noInvalidDate: true }), n: fc.integer() })),
      (value) => {
        const readBack = (serialize: () => unknown): unknown => {
          try {
            return transformer.output.deserialize(JSON.parse(JSON.stringify(serialize())));
          } catch (e) {
            return `refused: ${e instanceof Error ? e.message : String(e)}`;
          }
        };
        assert.deepEqual(
          readBack(() => transformer.output.serialize(value)),
          readBack(() => superjson.serialize(value)),
        );
      },
    ),
    { numRuns: 300 },
  );
});
