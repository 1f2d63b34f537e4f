// The typed client as another app uses it: a plain Node ESM script in its own process, and OwoError's fields.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { TRPCClientError } from "@trpc/client";
import { createTestMerchant, freePort, startOwo, type Owo, type TestMerchant } from "../server/testing/harness";
import { sampleOrder } from "../server/testing/initiation";
import { createOwoClient, OwoError, type OwoInputs } from "./index";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("..", import.meta.url));

let owo: Owo;
let merchant: TestMerchant;

before(async () => {
  // `npm run test:unit` builds the client first; a lone run of this file builds it if it was never built.
  if (!existsSync(new URL("dist/client/index.js", import.meta.url))) await run("npm", ["run", "build:client"], { cwd: repo });
  owo = await startOwo();
  merchant = await createTestMerchant("Script Store");
});
after(() => owo.stop());

const { amount: _amount, ...customer } = sampleOrder; // each call names its own amount

/** Awaits a call that must fail and hands back its OwoError. */
async function refusal(pending: Promise<unknown>): Promise<OwoError> {
  const err = await pending.then(
    () => assert.fail("the call succeeded where a failure was expected"),
    (e: unknown) => e,
  );
  assert.ok(err instanceof OwoError, `expected an OwoError, got ${String(err)}`);
  return err;
}

describe("a merchant backend in its own process", () => {
  it("imports owo/client, initiates both channels, pays in the sandbox and verifies", async () => {
    const { stdout } = await run(process.execPath, ["client/merchant-backend.example.mjs"], {
      cwd: repo,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        OWO_URL: owo.url,
        PUBLIC_KEY: merchant.publicKey,
        SECRET_KEY: merchant.secretKey,
      },
      timeout: 60_000,
    });
    const lines = stdout.trim().split("\n");
    assert.equal(lines.length, 5, stdout);
    assert.match(lines[0] ?? "", /^USSD ord-[a-z0-9]+-ussd: dial \*737\*000\*\d{8}# before \d{4}-\d\d-\d\dT[\d:.]+Z$/);
    assert.match(lines[1] ?? "", /^TRANSFER ord-[a-z0-9]+-transfer: pay 2500\.50 into \d{10} at Owo Sandbox Bank$/);
    assert.match(lines[2] ?? "", /^verify ord-[a-z0-9]+-ussd: SUCCESSFUL \(code 00\), paid 1500\.00 of 1500\.00$/);
    assert.match(lines[3] ?? "", /^verify ord-[a-z0-9]+-transfer: PARTIALLY_PAID \(code S20\), paid 1000\.00 of 2500\.50$/);
    assert.equal(lines[4], "refused: S404 (HTTP 404) No payment with reference no-such-order");
  });
});

describe("OwoError", () => {
  it("carries API.md's code, the HTTP status and every field at fault", async () => {
    const owoClient = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: merchant.secretKey });
    // What a JavaScript caller (no type checker) can send: a USSD request without its bank, and a bad e-mail.
    const input = {
      ...customer,
      email: "not-an-email",
      amount: "1500",
      paymentType: "USSD",
      paymentReference: "ord-no-bank",
    } as unknown as OwoInputs["initiatePayment"];
    const err = await refusal(owoClient.initiatePayment.mutate(input));
    assert.equal(err.code, "S5");
    assert.equal(err.httpStatus, 400);
    assert.equal(err.message, "Invalid/Missing parameters = email, bankCode");
    assert.deepEqual(
      err.errors.map((e) => e.field),
      ["email", "bankCode"],
    );
    assert.match(err.errors[1]?.message ?? "", /GET \/api\/v2\/banks/);
    assert.ok(err instanceof TRPCClientError, "still a TRPCClientError for code that expects one");
  });

  it("names the single field at fault with its own code", async () => {
    const owoClient = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: merchant.secretKey });
    const err = await refusal(
      owoClient.initiatePayment.mutate({ ...customer, amount: "99.99", paymentType: "TRANSFER", paymentReference: "ord-small" }),
    );
    assert.equal(err.code, "S2");
    assert.equal(err.httpStatus, 400);
    assert.deepEqual(err.errors, [{ field: "amount", message: "must be from 100.00 to 10000000.00 for TRANSFER" }]);
  });

  it("reports a wrong key pair as S1 from the token exchange", async () => {
    const owoClient = createOwoClient({ baseUrl: owo.url, publicKey: merchant.publicKey, secretKey: "sk_test_wrong" });
    const err = await refusal(owoClient.verifyPayment.query({ paymentReference: "ord-1" }));
    assert.equal(err.code, "S1");
    assert.equal(err.httpStatus, 401);
    assert.match(err.message, /Invalid key pair/);
  });

  it("is NETWORK with status 0 when nothing answers", async () => {
    const owoClient = createOwoClient({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
      publicKey: merchant.publicKey,
      secretKey: merchant.secretKey,
    });
    const err = await refusal(owoClient.verifyPayment.query({ paymentReference: "ord-1" }));
    assert.equal(err.code, "NETWORK");
    assert.equal(err.httpStatus, 0);
  });
});
