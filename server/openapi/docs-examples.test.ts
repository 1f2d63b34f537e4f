// The docs cannot rot: every curl of the quick start runs with the real curl against a real Owo, as a reader would paste it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { ERROR_CODES } from "../../app/docs/error-codes";
import { quickStart, seerbitSteps, setupCommand } from "../../app/docs/examples";
import { ApiError, type ApiCode } from "../api-error";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";

const run = promisify(execFile);

let owo: Owo;
let merchant: TestMerchant;
let curlHome = "";

before(async () => {
  owo = await startOwo();
  merchant = await createTestMerchant("Docs Store");
  // curl reads $CURL_HOME/.curlrc: it appends the HTTP status to every answer without touching the commands shown.
  curlHome = mkdtempSync(join(tmpdir(), "owo-curl-"));
  writeFileSync(join(curlHome, ".curlrc"), 'write-out = "\\n%{http_code}"\n');
});
after(async () => {
  await owo.stop();
  rmSync(curlHome, { recursive: true, force: true });
});

/** The shell a reader of the docs has: bash and curl, and the placeholders the docs' setup exports (no token yet). */
function readersShell(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "test",
    CURL_HOME: curlHome,
    OWO_URL: owo.url,
    PUBLIC_KEY: merchant.publicKey,
    SECRET_KEY: merchant.secretKey,
    TOKEN: "",
  };
}

type Answer = { status: string; data: Record<string, unknown> };

/** One documented command run as pasted: the HTTP status curl appends (.curlrc) and the JSON answer above it. */
async function pasted(command: string, env: NodeJS.ProcessEnv): Promise<{ http: string; answer: Answer; stdout: string }> {
  const { stdout } = await run("bash", ["-c", command], { env, timeout: 30_000 });
  const cut = stdout.lastIndexOf("\n");
  return { http: stdout.slice(cut + 1), answer: JSON.parse(stdout.slice(0, cut)) as Answer, stdout };
}

/** Field names all the way down (arrays by their first item): the docs' sample must show what the server sends. */
function fieldsOf(value: unknown): unknown {
  if (Array.isArray(value)) return [fieldsOf(value[0])];
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, fieldsOf((value as Record<string, unknown>)[k])]),
    );
  }
  return "value";
}

describe("the quick start", () => {
  it("sets the placeholders every command uses", () => {
    const used = new Set(quickStart.flatMap((s) => [...s.command.matchAll(/\$([A-Z_]+)/g)].map((m) => m[1])));
    assert.deepEqual([...used].sort(), ["OWO_URL", "PUBLIC_KEY", "SECRET_KEY", "TOKEN"]);
    for (const name of ["OWO_URL", "PUBLIC_KEY", "SECRET_KEY"]) assert.match(setupCommand, new RegExp(`export ${name}=`));
  });

  it("runs step by step in bash with curl: each answer is 200, SUCCESS and shaped like the docs' sample", async () => {
    const env = readersShell();
    for (const step of quickStart) {
      const { http, answer, stdout } = await pasted(step.command, env);
      assert.equal(http, "200", `${step.id}: ${stdout}`);
      assert.equal(answer.status, "SUCCESS", step.id);
      assert.deepEqual(fieldsOf(answer), fieldsOf(step.answer), `${step.id}: the sample's fields differ from the real answer's`);
      if (step.id === "token") env.TOKEN = (answer.data.EncryptedSecKey as { encryptedKey: string }).encryptedKey;
      if (step.id === "verify") {
        assert.equal(answer.data.code, "00");
        assert.equal((answer.data.payments as { status: string }).status, "SUCCESSFUL");
      }
    }
    assert.notEqual(env.TOKEN, "");
  });
});

describe("Coming from SeerBit", () => {
  it("runs step by step in bash with curl: each answer is 200, SUCCESS and shaped like the docs' sample", async () => {
    const env = readersShell();
    for (const step of seerbitSteps) {
      const { http, answer, stdout } = await pasted(step.command, env);
      assert.equal(http, "200", `${step.id}: ${stdout}`);
      assert.equal(answer.status, "SUCCESS", step.id);
      if (step.id === "token") env.TOKEN = (answer.data.EncryptedSecKey as { encryptedKey: string }).encryptedKey;
      if (step.id === "verify-standard") {
        // Before the customer's choice: pending, no channel, nobody issued anything yet.
        const p = answer.data.payments as Record<string, unknown>;
        assert.deepEqual([answer.data.code, p.status, p.paymentType, p.provider], ["S20", "PENDING", null, null]);
      }
      assert.deepEqual(fieldsOf(answer), fieldsOf(step.answer), `${step.id}: the sample's fields differ from the real answer's`);
    }
  });
});

describe("the errors table", () => {
  it("gives each code the HTTP status the core answers with", () => {
    for (const [code, { http }] of Object.entries(ERROR_CODES)) {
      assert.equal(new ApiError(code as ApiCode, "").httpStatus, http, code);
    }
  });
});
