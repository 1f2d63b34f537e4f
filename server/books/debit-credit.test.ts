import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { formatKobo } from "../money";
import { debitOrCredit } from "./debit-credit";

test("a debit shows in the Debit column, a credit unsigned in the Credit column, a zero in neither", () => {
  assert.deepEqual(debitOrCredit({ account: "provider:sandbox", amount: "20000.00" }), {
    account: "provider:sandbox",
    debit: "20000.00",
    credit: null,
  });
  assert.deepEqual(debitOrCredit({ account: "sales", amount: "-20000.00" }), { account: "sales", debit: null, credit: "20000.00" });
  assert.deepEqual(debitOrCredit({ account: "fees", amount: "0.00" }), { account: "fees", debit: null, credit: null });
});

test("the columns give back the signed amount: debit − credit, for any kobo", () => {
  fc.assert(
    fc.property(fc.integer({ min: -1e12, max: 1e12 }), (kobo) => {
      const { debit, credit } = debitOrCredit({ account: "bank", amount: formatKobo(kobo) });
      assert.ok(debit === null || credit === null, "one side only");
      const back = debit !== null ? debit : credit !== null ? `-${credit}` : "0.00";
      assert.equal(back, formatKobo(kobo));
    }),
  );
});
