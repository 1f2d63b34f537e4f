// Paystack's List Banks as the double pages it (Paystack's cursor pages: its sample's meta.next "YmFuazoxNjk=" is
// base64 "bank:169", the id that starts the next page), and Owo reading every bank it lists, the fintech and
// microfinance banks of Paystack's own sample included, over real HTTP against the double as its own process.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { spawnDouble, type DoubleProcess } from "../../testing/processes";
import { paystack } from "./connector";

const SECRET_KEY = "sk_live_paystack_banks";
let double: DoubleProcess;
before(async () => {
  double = await spawnDouble("paystack", { "secret-key": SECRET_KEY });
});
after(() => double.stop());

type Page = { data: { id: number; code: string; name: string }[]; meta: { next: string | null; previous: string | null; perPage: number } };
async function banks(query: string): Promise<{ status: number; body: Page }> {
  const res = await fetch(`${double.url}/bank?${query}`, { headers: { authorization: `Bearer ${SECRET_KEY}` } });
  return { status: res.status, body: (await res.json()) as Page };
}

test("cursor pages: perPage banks from each next cursor, highest id first, base64 bank:<id>; previous leads back", async () => {
  const seen: number[] = [];
  const pages: number[] = [];
  let next: string | null = null;
  do {
    const page: { status: number; body: Page } = await banks(
      `country=nigeria&currency=NGN&use_cursor=true&perPage=3${next ? `&next=${next}` : ""}`,
    );
    assert.equal(page.status, 200);
    assert.equal(page.body.meta.perPage, 3);
    seen.push(...page.body.data.map((b) => b.id));
    pages.push(page.body.data.length);
    next = page.body.meta.next;
    if (next) assert.match(Buffer.from(next, "base64").toString(), /^bank:\d+$/);
  } while (next);
  assert.deepEqual(pages, [3, 3, 3, 1]);
  assert.deepEqual(seen, [302, 174, 173, 172, 171, 170, 21, 9, 7, 1], "each bank once, highest id first");
  const second = await banks(`use_cursor=true&perPage=3&next=${Buffer.from("bank:172").toString("base64")}`);
  assert.deepEqual(
    second.body.data.map((b) => b.id),
    [172, 171, 170],
  );
  const back = await banks(`use_cursor=true&perPage=3&previous=${second.body.meta.previous}`);
  assert.deepEqual(
    back.body.data.map((b) => b.id),
    [302, 174, 173],
  );
  assert.equal((await banks("use_cursor=true&next=bm90LWEtY3Vyc29y")).status, 400, "a cursor Paystack never gave");
  assert.deepEqual((await banks("country=ghana&use_cursor=true")).body.data, [], "no Nigerian bank in Ghana's list");
});

test("Paystack's documented parameters hold (perPage an integer, use_cursor a boolean)", async (t) => {
  const { openApiDocument } = (await (await fetch(`${double.url}/_double`)).json()) as { openApiDocument: string | null };
  if (!openApiDocument) return t.skip("../shared/providers/paystack-openapi.yaml is absent: nothing to hold the parameters to");
  assert.equal((await banks("perPage=many")).status, 400);
  assert.equal((await banks("use_cursor=maybe")).status, 400);
});

test("Owo's refund form reads every bank Paystack lists: OPay, Moniepoint and the sample's mortgage, merchant and microfinance banks", async () => {
  const account = { id: "prv_banks", provider: "paystack" as const, baseUrl: double.url, credentials: { secretKey: SECRET_KEY } };
  const listed = await paystack.refundBanks?.(account, AbortSignal.timeout(10_000));
  assert.deepEqual(
    listed?.map((b) => [b.code, b.providerBankId]),
    [
      ["50515", "302"],
      ["801", "174"],
      ["559", "173"],
      ["50457", "172"],
      ["999992", "171"],
      ["50746", "170"],
      ["057", "21"],
      ["058", "9"],
      ["011", "7"],
      ["044", "1"],
    ],
  );
});
