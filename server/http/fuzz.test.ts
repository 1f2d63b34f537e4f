// Fuzz: thousands of generated bodies and headers over every REST route and tRPC procedure — no 5xx, always the envelope.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import fc from "fast-check";
import { appRouter } from "../trpc/root";
import { tempDataDir, tokenFor } from "../testing/harness";
import { cliMerchant, databaseIn, spawnOwo } from "../testing/processes";

const TOTAL = Number(process.env.OWO_FUZZ_REQUESTS ?? 10_000);
const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

const REST: { method: string; path: string }[] = [
  { method: "POST", path: "/api/v2/encrypt/keys" },
  { method: "POST", path: "/api/v2/payments/initiates" },
  { method: "GET", path: "/api/v3/payments/query/fuzz-ref" },
  { method: "GET", path: "/api/v2/payments/query/%ZZ" },
  { method: "GET", path: "/api/v2/banks" },
  { method: "POST", path: "/api/v2/sandbox/payments/fuzz-ref/simulate" },
  { method: "POST", path: "/api/v2/providers/sandbox/notices" },
  { method: "DELETE", path: "/api/v2/payments/initiates" },
  { method: "GET", path: "/api/v2/openapi.json" },
];

const junk = fc.oneof(
  fc.anything({ maxDepth: 4 }),
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ minLength: 5000, maxLength: 20_000 }),
  fc.constantFrom(null, true, 0, -1, 1e308, "", [], {}, "__proto__", { __proto__: { polluted: 1 } }),
);

/** Near-valid initiation bodies: the right keys with some values swapped for junk, so deep paths are reached. */
const nearValid = (publicKey: string) =>
  fc.record(
    {
      publicKey: fc.oneof(fc.constant(publicKey), junk),
      amount: fc.oneof(fc.constantFrom("1500", "1500.00", "0", "1e3", " 100", "99999999999999", "-5"), junk),
      fullName: fc.oneof(fc.constant("Ada Obi"), fc.string({ unit: "grapheme", maxLength: 300 }), junk),
      mobileNumber: fc.oneof(fc.constant("08012345678"), junk),
      email: fc.oneof(fc.constant("ada@example.com"), fc.emailAddress(), junk),
      currency: fc.oneof(fc.constant("NGN"), junk),
      country: fc.oneof(fc.constant("NG"), junk),
      paymentReference: fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/), junk),
      callbackUrl: fc.oneof(fc.constant("https://a.example.ng/cb"), fc.webUrl(), junk),
      redirectUrl: fc.oneof(fc.constant("https://a.example.ng/r"), junk),
      paymentType: fc.oneof(fc.constantFrom("USSD", "TRANSFER", "usSd", ""), junk),
      bankCode: fc.oneof(fc.constantFrom("058", "063", "000", "999"), junk),
      outcome: fc.oneof(fc.constantFrom("pay", "decline"), junk),
      key: junk,
    },
    { requiredKeys: [] },
  );

type Shot = { method: string; path: string; body?: string; headers: Record<string, string> };

function shots(publicKey: string, token: string, procedures: { path: string; type: string }[]): fc.Arbitrary<Shot> {
  const auth = fc.oneof(
    fc.constant(`Bearer ${token}`),
    fc.constant(undefined),
    fc.string({ maxLength: 80 }),
    fc.constant("Bearer owo_test_forged"),
  );
  const ctype = fc.oneof(
    { arbitrary: fc.constant("application/json"), weight: 6 },
    fc.constantFrom("text/plain", "application/json; charset=utf-8", "", "multipart/form-data"),
  );
  const payload = fc.oneof(
    nearValid(publicKey).map((o) => JSON.stringify(o)),
    junk.map((j) => {
      try {
        return JSON.stringify(j) ?? "null";
      } catch {
        return "{}";
      }
    }),
    fc.string({ maxLength: 300 }),
    fc.constant('{"amount": "1500",'),
  );
  const rest = fc
    .record({ route: fc.constantFrom(...REST), body: payload, authorization: auth, contentType: ctype })
    .map(({ route, body, authorization, contentType }) => ({
      method: route.method,
      path: route.path,
      body: route.method === "GET" ? undefined : body,
      headers: { ...(authorization ? { authorization } : {}), "content-type": contentType },
    }));
  const trpc = fc
    .record({
      proc: fc.constantFrom(...procedures),
      input: fc.oneof(nearValid(publicKey), junk),
      wrap: fc.boolean(),
      raw: fc.option(fc.string({ maxLength: 100 })),
      authorization: auth,
    })
    .map(({ proc, input, wrap, raw, authorization }) => {
      let text: string;
      try {
        text = raw ?? JSON.stringify(wrap ? { json: input } : input) ?? "null";
      } catch {
        text = "{}";
      }
      const headers: Record<string, string> = { "content-type": "application/json", ...(authorization ? { authorization } : {}) };
      return proc.type === "query"
        ? { method: "GET", path: `/api/trpc/${proc.path}?input=${encodeURIComponent(text)}`, headers }
        : { method: "POST", path: `/api/trpc/${proc.path}`, body: text, headers };
    });
  return fc.oneof(rest, trpc);
}

/** One shot; a connection closed under it before any answer is sent once more on a fresh connection, and counted. */
async function shoot(base: string, shot: Shot, closed: () => void): Promise<Response> {
  const send = () => fetch(base + shot.path, { method: shot.method, headers: shot.headers, body: shot.body });
  try {
    return await send();
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    if (cause?.code !== "UND_ERR_SOCKET") throw err;
    closed();
    return send();
  }
}

function envelopeProblem(path: string, status: number, text: string): string | null {
  if (status >= 500) return `${status}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  // Oversized requests are refused by the front before routing, in the REST envelope.
  if (path.startsWith("/api/trpc/") && status !== 431) {
    const e = (json as { error?: { json?: { data?: { apiCode?: unknown; errors?: unknown } } } }).error;
    if (!e) return (json as { result?: unknown }).result !== undefined ? null : "neither result nor error";
    return typeof e.json?.data?.apiCode === "string" && Array.isArray(e.json.data.errors) ? null : "tRPC error without apiCode/errors";
  }
  if (path === "/api/v2/openapi.json" && status === 200)
    return typeof (json as { openapi?: unknown }).openapi === "string" ? null : "not an OpenAPI document";
  const env = json as { status?: string; data?: { code?: unknown; message?: unknown; errors?: unknown } };
  if (env.status === "SUCCESS") return null;
  if (
    env.status !== "ERROR" ||
    typeof env.data?.code !== "string" ||
    typeof env.data.message !== "string" ||
    !Array.isArray(env.data.errors)
  )
    return "not the error envelope";
  return null;
}

test(`${TOTAL} generated requests over every REST route and tRPC procedure: no 5xx, always the envelope, a clean log`, async () => {
  const m = cliMerchant(dataDir, "Fuzz", "fuzz@example.com");
  const owo = await spawnOwo(databaseIn(dataDir));
  try {
    const token = await tokenFor(owo, m);
    const procedures = Object.entries(appRouter._def.procedures).map(([path, p]) => ({
      path,
      type: (p as { _def: { type: string } })._def.type,
    }));
    const seed = Number(process.env.OWO_FUZZ_SEED ?? Date.now() % 1e9);
    const all = fc.sample(shots(m.publicKey, token, procedures), { numRuns: TOTAL, seed });
    const failures: string[] = [];
    let closedOnReuse = 0;
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const shot = all[next++];
        if (!shot) break;
        const res = await shoot(owo.url, shot, () => closedOnReuse++);
        const problem = envelopeProblem(shot.path, res.status, await res.text());
        if (problem) failures.push(`${problem}: ${shot.method} ${shot.path} ${shot.body?.slice(0, 200) ?? ""}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    assert.deepEqual(failures.slice(0, 5), [], `seed ${seed}: ${failures.length} bad answers`);
    // A kept-alive connection closed as it is reused is legal HTTP (clients retry); seen only on a heavily loaded machine.
    assert.ok(closedOnReuse <= 3, `seed ${seed}: ${closedOnReuse} kept-alive connections were closed under a request`);
    assert.ok(procedures.length >= 4, "procedures were enumerated from the router");
    assert.doesNotMatch(owo.output(), /"level":(50|60)|nhandled/, "the server log has no errors");
    assert.equal(owo.child.exitCode, null, "the server is still up");
  } finally {
    owo.child.kill("SIGTERM");
    await owo.exited;
  }
});
