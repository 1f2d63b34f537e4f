// Isolation: every tRPC procedure and REST route, called by another merchant, finds nothing of the first merchant's.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { restRoutes } from "../http/rest-routes";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { spawnDouble, type DoubleProcess } from "../testing/processes";
import { sessionCookie } from "../testing/sessions";
import { appRouter, createCaller } from "./root";
import { isolationCases } from "./isolation-cases";
import { startSession, liveSessionUser } from "../auth/sessions";
import { setBusinessProfile } from "../merchants/business-profile";
import { exceptionQuery, listExceptions } from "../reconciliation/exceptions";
import { userCaller } from "../auth/callers";
import { fanOutPending } from "../webhooks/fan-out";
import { rollSecretKey } from "../auth/api-keys";

let owo: Owo;
let a: TestMerchant;
let b: TestMerchant;
let bCookie: string;
/** Connecting tries the credentials at the provider: A's are the double's; B's are refused (400, still nothing of A's). */
let paystack: DoubleProcess;
const ids: Record<string, string | number> = {};

/** Strings only merchant A's data contains; none may appear in an answer to B. */
const MARKERS = [
  "alpha-invitee@example.com",
  "Alpha Foods",
  "alpha-secret-ref",
  "alpha-customer@example.com",
  "08099990000",
  "Alpha Link",
  "alpha-hooks.example.ng",
  "alpha-support@example.com",
];

before(async () => {
  paystack = await spawnDouble("paystack", { "secret-key": "sk_test_alpha_foods_key" });
  owo = await startOwo({ OWO_ALLOW_PROVIDER_BASE_URL: "1" });
  a = await createTestMerchant("Alpha Foods");
  b = await createTestMerchant("Bravo Mart");
  bCookie = await sessionCookie(b.userId);
  ids.sessionId = (await startSession(a.userId, { ip: "198.51.100.1", userAgent: "Alpha Foods browser" })).id;
  await setBusinessProfile(a.merchantId, { name: "Alpha Foods", supportEmail: "alpha-support@example.com", supportPhone: null });
  const token = await tokenFor(owo, a);
  const paid = await call(owo, "POST", "/api/v2/payments/initiates", {
    token,
    body: {
      publicKey: a.publicKey,
      amount: "1500",
      fullName: "Alpha Customer",
      mobileNumber: "08099990000",
      email: "alpha-customer@example.com",
      currency: "NGN",
      country: "NG",
      paymentReference: "alpha-secret-ref",
      callbackUrl: "https://alpha-hooks.example.ng/cb",
      redirectUrl: "https://alpha-hooks.example.ng/r",
      paymentType: "TRANSFER",
    },
  });
  ids.linkingReference = paid.json.data.payments.linkingReference;
  await call(owo, "POST", "/api/v2/sandbox/payments/alpha-secret-ref/simulate", { token, body: { outcome: "pay" } });
  // Paid ₦1.00 short, so A has a reconciliation exception (net_mismatch) for B to look for.
  ids.settlementId = (
    await call(owo, "POST", "/api/v2/sandbox/settlements", { token, body: { shortBy: "1.00" } })
  ).json.data.settlement.settlementId;
  const [exception] = await listExceptions({ merchantId: a.merchantId, mode: "test" }, exceptionQuery.parse({}));
  assert.ok(exception, "A has an exception to look for");
  ids.exceptionId = exception.exceptionId;
  const owner = await userCaller(a.userId, {});
  assert.ok(owner);
  const asA = createCaller({ caller: owner, authError: null, requestId: "setup", setHeader: () => undefined, ip: null });
  ids.linkId = (await asA.links.create({ title: "Alpha Link", amount: "2500.00", channels: ["TRANSFER"] })).id;
  ids.endpointId = (await asA.webhooks.endpoints.add({ url: "https://alpha-hooks.example.ng/endpoint" })).id;
  ids.inviteId = (await asA.team.invite({ role: "viewer", email: "alpha-invitee@example.com" })).id;
  ids.providerId = (
    await asA.providers.connect({ provider: "paystack", credentials: { secretKey: "sk_test_alpha_foods_key" }, baseUrl: paystack.url })
  ).providerId;
  await fanOutPending();
  const [delivery] = await asA.webhooks.deliveries.byPayment({ paymentReference: "alpha-secret-ref" });
  assert.ok(delivery, "A has a delivery to look for");
  ids.deliveryId = delivery.id;
});
after(async () => {
  await owo.stop();
  await paystack.stop();
});

const CASES = isolationCases({ ids, aUserId: () => a.userId, paystackUrl: () => paystack.url });

const procedures = Object.entries(appRouter._def.procedures).map(([path, p]) => ({
  path,
  type: (p as { _def: { type: string } })._def.type,
}));

test("the case list covers every procedure of the router, so a new one cannot be forgotten", () => {
  assert.deepEqual(Object.keys(CASES).sort(), procedures.map((p) => p.path).sort());
});

test("merchant B, signed in as an owner, gets NOT_FOUND for A's ids and none of A's data anywhere", async () => {
  const outcomes: string[] = [];
  for (const { path, type } of procedures) {
    const c = CASES[path];
    if (!c) continue;
    const json = JSON.stringify({ json: c.input?.() ?? null });
    const headers = { cookie: bCookie, origin: owo.url };
    const res =
      type === "query"
        ? await call(owo, "GET", `/api/trpc/${path}?input=${encodeURIComponent(json)}`, { headers })
        : await call(owo, "POST", `/api/trpc/${path}`, { raw: json, headers });
    assert.ok(res.status < 500, `${path}: ${res.text}`);
    // What B sent (e.g. the reference it asked for) may be echoed back; anything else of A's may not.
    const leaked = MARKERS.filter((m) => res.text.includes(m) && !json.includes(m));
    if (c.why) {
      // The customer's page needs the reference and the redirect URL; the customer's contact details and the callback stay private.
      const privateOnes = ["alpha-customer@example.com", "08099990000", "alpha-hooks.example.ng/cb"].filter((m) => res.text.includes(m));
      assert.deepEqual(privateOnes, [], `${path} (${c.why}): ${res.text.slice(0, 300)}`);
    } else {
      assert.deepEqual(leaked, [], `${path} leaked A's data: ${res.text.slice(0, 300)}`);
    }
    outcomes.push(`${path}:${res.status}`);
  }
  for (const byId of [
    "verifyPayment",
    "payments.byReference",
    "payments.cancel",
    "payments.refund",
    "payments.refundBanks",
    "payments.refundAccount",
    "payments.cancelRefund",
    "sandbox.simulate",
    "settlements.byId",
    "settlements.explained",
    "reconciliation.resolve",
    "links.byId",
    "links.setActive",
    "team.withdrawInvite",
    "team.changeRole",
    "team.remove",
    "webhooks.endpoints.disable",
    "webhooks.endpoints.enable",
    "webhooks.endpoints.delete",
    "webhooks.deliveries.byEndpoint",
    "webhooks.deliveries.resend",
    "providers.test",
    "providers.disconnect",
    "providers.setRefunds",
    "providers.setForwardUrl",
    "providers.forwards",
    "account.sessions.end",
  ]) {
    assert.ok(outcomes.includes(`${byId}:404`), `${byId} answers 404 for A's id: ${outcomes.find((o) => o.startsWith(`${byId}:`))}`);
  }
  const deliveries = outcomes.find((o) => o.startsWith("webhooks.deliveries.byPayment:"));
  assert.ok(deliveries === "webhooks.deliveries.byPayment:404" || deliveries === "webhooks.deliveries.byPayment:200", deliveries);
});

test("A's objects are untouched by B's attempts", async () => {
  const token = await tokenFor(owo, a);
  const v = await call(owo, "GET", "/api/v3/payments/query/alpha-secret-ref", { token });
  assert.equal(v.json.data.payments.status, "SUCCESSFUL");
  assert.equal(v.json.data.payments.amountToRefund, "0.00", "B's simulate did not pay into A's payment");
  const asA = createCaller({
    caller: await userCaller(a.userId, {}),
    authError: null,
    requestId: "check",
    setHeader: () => undefined,
    ip: null,
  });
  assert.equal((await asA.links.byId({ id: String(ids.linkId) })).link.active, true);
  assert.equal((await asA.webhooks.endpoints.list()).find((e) => e.id === ids.endpointId)?.enabled, true);
  assert.equal((await asA.team.members()).find((m) => m.userId === a.userId)?.role, "owner");
  assert.ok((await asA.team.invites()).some((i) => i.id === ids.inviteId));
  assert.ok(
    (await asA.reconciliation.exceptions({})).some((e) => e.exceptionId === ids.exceptionId),
    "B could not resolve A's exception",
  );
  assert.equal(await liveSessionUser(String(ids.sessionId)), a.userId, "B could not end A's session");
});

test("every REST route that takes a reference answers B with 404 and nothing of A's", async () => {
  const token = await tokenFor(owo, await rollSecretKey({ merchantId: b.merchantId, mode: "test" }, 0)); // keys.roll above killed B's first secret
  const withReference = restRoutes.filter((r) => r.pattern.source.includes("?<reference>"));
  assert.ok(withReference.length >= 2);
  for (const route of withReference) {
    const path = route.pattern.source
      .replace(/^\^|\$$/g, "")
      .replace(/\\\//g, "/")
      .replace("v[23]", "v3")
      .replace(/\(\?<reference>[^)]*\)/, "alpha-secret-ref")
      .replace(/\(\?<refundReference>[^)]*\)/, "RFD-alpha");
    const res = await call(owo, route.method, path, { token, ...(route.body === "none" ? {} : { body: { outcome: "pay" } }) });
    assert.equal(res.status, 404, `${route.method} ${path}: ${res.text}`);
    assert.deepEqual(
      MARKERS.filter((m) => res.text.includes(m) && !path.includes(m)),
      [],
      path,
    );
  }
});
