// The tRPC door answers exactly as tRPC's own Node adapter would, call for call: the same status, headers that matter and body.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { createTestMerchant, startOwo, tokenFor, type Owo } from "../testing/harness";
import { sampleOrder } from "../testing/initiation";
import { appRouter } from "./root";
import { contextFromRequest } from "./context";

let owo: Owo;
let reference: Server;
let referenceUrl: string;
let token: string;

before(async () => {
  owo = await startOwo();
  // The oracle: tRPC's own adapter over the same router, context and database.
  const adapter = createHTTPHandler({
    router: appRouter,
    basePath: "/api/trpc/",
    maxBodySize: 16 * 1024,
    createContext: ({ req, res }) => contextFromRequest(req, res, "oracle"),
  });
  reference = createServer((req, res) => adapter(req, res));
  await new Promise<void>((r) => reference.listen(0, "127.0.0.1", r));
  referenceUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}`;
  token = await tokenFor(owo, await createTestMerchant());
});
after(async () => {
  reference.closeAllConnections();
  await new Promise((r) => reference.close(r));
  await owo.stop();
});

type Call = { method: "GET" | "POST"; path: string; body?: string; headers?: Record<string, string> };

async function both(c: Call) {
  const send = async (base: string) => {
    const res = await fetch(base + c.path, {
      method: c.method,
      body: c.body,
      headers: { authorization: `Bearer ${token}`, ...(c.body !== undefined ? { "content-type": "application/json" } : {}), ...c.headers },
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type"), vary: res.headers.get("vary"), body: text };
  };
  const door = await send(owo.url);
  const oracle = await send(referenceUrl);
  assert.deepEqual(door, oracle, `${c.method} ${c.path}`);
  return door;
}

const input = (value: unknown) => encodeURIComponent(JSON.stringify({ json: value }));
const initiation = { ...sampleOrder, paymentReference: "door-parity-1", paymentType: "USSD", bankCode: "058" };

test("a mutation, then its replay, and a query answer alike (the replay returns the first payment's bytes)", async () => {
  const created = await both({ method: "POST", path: "/api/trpc/initiatePayment", body: JSON.stringify({ json: initiation }) });
  assert.equal(created.status, 200);
  assert.match(created.body, /"paymentReference":"door-parity-1"/);
  const verified = await both({ method: "GET", path: `/api/trpc/verifyPayment?input=${input({ paymentReference: "door-parity-1" })}` });
  assert.match(verified.body, /"status":"PENDING"/);
});

test("field errors, bad JSON and empty bodies are the same tRPC errors with the same apiCode", async () => {
  const fields = await both({
    method: "POST",
    path: "/api/trpc/initiatePayment",
    body: JSON.stringify({ json: { ...initiation, email: "nope", amount: "-1" } }),
  });
  assert.equal(fields.status, 400);
  assert.match(fields.body, /"apiCode":"S5"/);
  await both({ method: "POST", path: "/api/trpc/initiatePayment", body: "{not json" });
  await both({ method: "POST", path: "/api/trpc/initiatePayment", body: "" });
  await both({ method: "GET", path: "/api/trpc/verifyPayment?input=%7Bbroken" });
  await both({ method: "GET", path: "/api/trpc/verifyPayment" });
});

test("unknown procedures, wrong methods and missing tokens are refused alike", async () => {
  assert.equal((await both({ method: "GET", path: "/api/trpc/noSuchThing" })).status, 404);
  assert.equal((await both({ method: "GET", path: "/api/trpc/initiatePayment" })).status, 405);
  assert.equal(
    (await both({ method: "POST", path: "/api/trpc/verifyPayment", body: JSON.stringify({ json: { paymentReference: "x" } }) })).status,
    405,
  );
  assert.equal(
    (
      await both({
        method: "GET",
        path: `/api/trpc/verifyPayment?input=${input({ paymentReference: "x" })}`,
        headers: { authorization: "Bearer owo_test_forged" },
      })
    ).status,
    401,
  );
});

test("batches and oversized bodies answer alike", async () => {
  const batch = await both({
    method: "GET",
    path: `/api/trpc/verifyPayment,verifyPayment?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { json: { paymentReference: "door-parity-1" } }, 1: { json: { paymentReference: "none" } } }))}`,
  });
  assert.equal(batch.status, 207);
  const big = await both({
    method: "POST",
    path: "/api/trpc/initiatePayment",
    body: JSON.stringify({ json: { ...initiation, fullName: "x".repeat(20 * 1024) } }),
  });
  assert.equal(big.status, 413);
});

test("an input nested past the limit is a plain 400 naming the limit, in every tier, never a stack overflow", async () => {
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  const bodies = [`{"json":{"title":"x"},"meta":{"values":{"title":${deep(7000)}}}}`, `{"json":${deep(7000)}}`];
  for (const body of bodies) {
    for (const path of ["/api/trpc/links.create", "/api/trpc/links.create?batch=1"]) {
      const res = await fetch(owo.url + path, {
        method: "POST",
        body: path.includes("batch") ? `{"0":${body}}` : body,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
      const text = await res.text();
      assert.equal(res.status, 400, text);
      assert.doesNotMatch(text, /call stack/i);
      assert.match(text, /nested deeper than 64 levels/);
    }
  }
});
