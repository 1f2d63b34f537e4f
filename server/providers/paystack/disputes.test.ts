// Paystack's disputes read by the connector against the Paystack double in its own process, over real HTTP: verify
// says only that a transaction was `reversed`; what was taken back, and under which dispute, the connector reads from
// List Disputes (GET /dispute?transaction=<id>), which the double serves as Paystack's OpenAPI document describes it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { bankByCode, type Bank } from "../banks";
import type { ProviderAccount } from "../connector";
import { paystack } from "./connector";

const secretKey = "sk_test_paystack_disputes_test";
let double: DoubleProcess;
let account: ProviderAccount;
let seq = 0;

before(async () => {
  double = await spawnDouble("paystack", { "secret-key": secretKey });
  account = { id: "prv_test", provider: "paystack", baseUrl: double.url, credentials: { secretKey } };
});
after(() => double.stop());

const quick = () => AbortSignal.timeout(15_000);
const post = (path: string, body: unknown = {}) => fetch(`${double.url}/_double${path}`, { method: "POST", body: JSON.stringify(body) });
const list = async (query: string) => {
  const res = await fetch(`${double.url}/dispute?${query}`, { headers: { authorization: `Bearer ${secretKey}` } });
  return { status: res.status, json: (await res.json()) as { data: { id: number; refund_amount: number }[]; message: string } };
};

/** A USSD charge of ₦5,000 the customer paid at Paystack: its reference and Paystack's id for it. */
async function paidCharge(): Promise<{ reference: string; id: number }> {
  const reference = `OWO-${process.pid}-dsp-${++seq}`;
  await paystack.issue(
    account,
    {
      channel: "USSD",
      reference,
      amountKobo: 500000,
      currency: "NGN",
      bank: bankByCode("058") as Bank,
      customer: { fullName: "Ada Obi", email: "ada@example.com", mobileNumber: "08012345678" },
      merchantName: "Demo Store",
      expiresAt: Date.now() + 20 * 60_000,
    },
    quick(),
  );
  assert.equal((await post(`/transactions/${reference}/pay`)).status, 200);
  const inspected = (await (await fetch(`${double.url}/_double/transactions/${reference}`)).json()) as { transaction: { id: number } };
  return { reference, id: inspected.transaction.id };
}

test("a reversed transaction is read with the disputes resolved against the merchant: each one's refund_amount under dispute:<id>", async () => {
  const other = await paidCharge();
  const t = await paidCharge();
  assert.equal((await paystack.query(account, t.reference, quick())).chargebacks, undefined, "paid: no dispute asked for");
  const taken = await post(`/transactions/${t.reference}/chargeback`, { amount: 300000 });
  const dispute = ((await taken.json()) as { dispute: { id: number } }).dispute.id;
  const read = await paystack.query(account, t.reference, quick());
  assert.equal(read.state, "reversed");
  assert.equal(read.amountKobo, 500000, "the transaction's own amount, as verify says it");
  assert.deepEqual(read.chargebacks, [{ deduction: `dispute:${dispute}`, amountKobo: 300000 }]);
  assert.equal((await paystack.query(account, other.reference, quick())).chargebacks, undefined, "another transaction's: none");
});

test("List Disputes at the double: filtered by the transaction's id and status, paged with Paystack's meta, its parameters held to the OpenAPI", async () => {
  const t = await paidCharge();
  await post(`/transactions/${t.reference}/chargeback`, { amount: 100000 });
  const mine = await list(`transaction=${t.id}&status=resolved&perPage=1&page=1`);
  assert.equal(mine.status, 200);
  assert.deepEqual(
    mine.json.data.map((d) => d.refund_amount),
    [100000],
  );
  assert.deepEqual((mine.json as unknown as { meta: unknown }).meta, { total: 1, skipped: 0, perPage: 1, page: 1, pageCount: 1 });
  assert.deepEqual((await list(`transaction=${t.id}&status=pending`)).json.data, [], "resolved, not pending");
  const wrong = await list(`transaction=${t.id}&status=lost`);
  assert.equal(wrong.status, 400, "status is one of the document's four");
  assert.match(wrong.json.message, /status/);
  assert.equal((await list(`transaction=${t.id}&page=first`)).status, 400, "page is an integer");
});
