// What a TypeScript project gets from `owo/client` after the build: AppRouter's real types, under both module resolutions.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { clientTypescriptExample } from "../app/docs/examples";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(repo, "node_modules/typescript/bin/tsc");

// Each @ts-expect-error must meet an error: if the client's types decayed to `any`, tsc reports the directive unused.
const consumer = `
import { createOwoClient, OwoError, type OwoInputs } from "owo/client";

const owo = createOwoClient({ baseUrl: "http://localhost:3000", publicKey: "pk_test_x", secretKey: "sk_test_x" });
const customer = {
  fullName: "Ada Obi", mobileNumber: "08012345678", email: "ada@example.com", currency: "NGN", country: "NG",
  callbackUrl: "https://shop.example.ng/cb", redirectUrl: "https://shop.example.ng/thanks", amount: "1500", paymentReference: "ord-1",
} as const;

export async function typed() {
  await owo.initiatePayment.mutate({ ...customer, paymentType: "USSD", bankCode: "058" });
  await owo.initiatePayment.mutate({ ...customer, paymentType: "TRANSFER" });
  // @ts-expect-error USSD needs the customer's bankCode
  await owo.initiatePayment.mutate({ ...customer, paymentType: "USSD" });
  // @ts-expect-error TRANSFER takes no bankCode
  await owo.initiatePayment.mutate({ ...customer, paymentType: "TRANSFER", bankCode: "058" });
  // @ts-expect-error only USSD and TRANSFER exist
  await owo.initiatePayment.mutate({ ...customer, paymentType: "CARD" });
  // @ts-expect-error the sandbox knows "pay" and "decline"
  await owo.sandbox.simulate.mutate({ paymentReference: "ord-1", outcome: "refund" });
  const { payments } = await owo.verifyPayment.query({ paymentReference: "ord-1" });
  const status: "PENDING" | "PARTIALLY_PAID" | "SUCCESSFUL" | "FAILED" | "EXPIRED" | "CANCELLED" = payments.status;
  // @ts-expect-error amounts are naira strings, never numbers
  const kobo: number = payments.amountPaid;
  const input: OwoInputs["verifyPayment"] = { paymentReference: "ord-1" };
  return { status, kobo, input };
}

export function fault(err: unknown) {
  if (err instanceof OwoError) {
    const code: string = err.code;
    const fields: string[] = err.errors.map((e) => e.field);
    // @ts-expect-error httpStatus is a number
    const status: string = err.httpStatus;
    return { code, fields, status };
  }
  return null;
}
`;

let dir = "";

before(async () => {
  if (!existsSync(new URL("dist/client/index.js", import.meta.url))) await run("npm", ["run", "build:client"], { cwd: repo });
  // A project outside this repository that has owo installed: node_modules/owo points at it.
  dir = mkdtempSync(join(tmpdir(), "owo-consumer-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(repo, join(dir, "node_modules/owo"));
  symlinkSync(join(repo, "node_modules/@types"), join(dir, "node_modules/@types"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(join(dir, "consumer.ts"), consumer);
  writeFileSync(join(dir, "docs-example.ts"), clientTypescriptExample);
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function typecheck(resolution: "bundler" | "nodenext"): Promise<string> {
  const module = resolution === "nodenext" ? "nodenext" : "esnext";
  const args = [
    tsc,
    "--noEmit",
    "--strict",
    "--skipLibCheck",
    "--target",
    "es2022",
    "--module",
    module,
    "--moduleResolution",
    resolution,
    "--types",
    "node",
    "consumer.ts",
    "docs-example.ts",
  ];
  return run(process.execPath, args, { cwd: dir, timeout: 120_000 }).then(
    () => "",
    (e: { stdout?: string }) => e.stdout ?? String(e),
  );
}

describe("owo/client's declarations", () => {
  for (const resolution of ["bundler", "nodenext"] as const) {
    it(`type-check a consumer and the docs' example under ${resolution} resolution`, async () => {
      assert.equal(await typecheck(resolution), "");
    });
  }
});
