// The floor is a fair yardstick only if it answers what Owo answers: the same verify bytes for the same payment, and
// initiations Owo itself can read back. Runs in both passes of server/testing/run.mjs (SQLite, then PostgreSQL).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { call, createTestMerchant, freePort, startOwo, tokenFor, type Owo, type TestMerchant } from "../server/testing/harness";
import { startChild, type Child } from "./processes";
import { initiationBodies } from "./scenarios";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let owo: Owo;
let floor: Child;
let merchant: TestMerchant;
let token: string;

before(async () => {
  owo = await startOwo();
  merchant = await createTestMerchant("Floor <&> Store");
  token = await tokenFor(owo, merchant);
  const port = await freePort();
  floor = await startChild(root, "bench/floor.ts", {
    PORT: String(port),
    DATABASE_URL: owo.databaseUrl,
    OWO_PUBLIC_URL: process.env.OWO_PUBLIC_URL ?? "",
    FLOOR_MERCHANT_ID: merchant.merchantId,
    FLOOR_MERCHANT_NAME: merchant.name,
  });
});

after(async () => {
  await floor?.stop();
  await owo?.stop();
});

for (const channel of ["USSD", "TRANSFER"] as const) {
  test(`the floor answers verify of an Owo ${channel} payment with Owo's own bytes, on ${process.env.OWO_TEST_POSTGRES_URL ? "PostgreSQL" : "SQLite"}`, async () => {
    const body = initiationBodies(channel, "floor-test")();
    const made = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: { publicKey: merchant.publicKey, ...body } });
    assert.equal(made.status, 200, made.text);
    const path = `/api/v3/payments/query/${encodeURIComponent(body.paymentReference ?? "")}`;
    const fromOwo = await call(owo, "GET", path, { token });
    const fromFloor = await call({ url: floor.url }, "GET", path);
    assert.equal(fromOwo.status, 200, fromOwo.text);
    assert.equal(fromFloor.text, fromOwo.text);
  });

  test(`a ${channel} payment the floor initiates has Owo's answer shape and is one Owo verifies`, async () => {
    const body = initiationBodies(channel, "floor-test")();
    const byFloor = await call({ url: floor.url }, "POST", "/api/v2/payments/initiates", {
      body: { publicKey: merchant.publicKey, ...body },
    });
    assert.equal(byFloor.status, 200, byFloor.text);
    const byOwo = await call(owo, "POST", "/api/v2/payments/initiates", {
      token,
      body: { publicKey: merchant.publicKey, ...initiationBodies(channel, "floor-test")() },
    });
    assert.deepEqual(Object.keys(byFloor.json.data.payments), Object.keys(byOwo.json.data.payments));
    assert.deepEqual(
      [byFloor.json.status, byFloor.json.data.code, byFloor.json.data.message],
      [byOwo.json.status, byOwo.json.data.code, byOwo.json.data.message],
    );
    const verified = await call(owo, "GET", `/api/v3/payments/query/${encodeURIComponent(body.paymentReference ?? "")}`, { token });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.json.data.payments.linkingReference, byFloor.json.data.payments.linkingReference);
    const again = await call({ url: floor.url }, "POST", "/api/v2/payments/initiates", {
      body: { publicKey: merchant.publicKey, ...body },
    });
    assert.equal(again.status, 409, "a reference already used is refused, as Owo refuses it");
  });
}
