// Cookie-authenticated mutations must come from Owo's own pages: a foreign or missing Origin is refused.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { sessionCookie } from "../testing/sessions";

let owo: Owo;
let cookie: string;
before(async () => {
  owo = await startOwo();
  const m = await createTestMerchant("Origin Check Ltd");
  cookie = await sessionCookie(m.userId);
});
after(() => owo.stop());

const create = (headers: Record<string, string>) =>
  call(owo, "POST", "/api/trpc/links.create", {
    raw: JSON.stringify({ json: { title: "Cross-site", amount: "100.00", channels: ["USSD"] } }),
    headers: { cookie, ...headers },
  });

test("a mutation with the session cookie from another origin, or with none, is FORBIDDEN and creates nothing", async () => {
  for (const headers of [{ origin: "https://evil.example" }, {}] as Record<string, string>[]) {
    const res = await create(headers);
    assert.equal(res.status, 403, res.text);
    assert.equal(res.json.error.json.data.apiCode, "S3");
  }
  const list = await call(owo, "GET", "/api/trpc/links.list", { headers: { cookie } });
  assert.equal(list.status, 200, "reads need no Origin");
  assert.deepEqual(list.json.result.data.json, []);
});

test("the same mutation from Owo's own origin goes through", async () => {
  const res = await create({ origin: owo.url });
  assert.equal(res.status, 200, res.text);
});
