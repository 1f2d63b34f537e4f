// The per-IP limit cannot be dodged by spelling a path differently: the front decides on the path Next will route.
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, test } from "node:test";
import { startOwo, type Owo } from "../testing/harness";
import { canonicalPath } from "./canonical-path";

const LIMIT = 5;
let owo: Owo;
const seen: string[] = [];
before(async () => {
  owo = await startOwo(
    { OWO_IP_RATE_LIMIT_PER_MIN: String(LIMIT), OWO_TRUST_PROXY: "1" },
    {
      // Stands in for Next: records the path it is handed, the path its router would match.
      pages: (req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.end("page");
      },
    },
  );
});
after(() => owo.stop());

/** node:http sends the path as written (fetch would resolve `/./` itself, as a browser does, hiding the attack). */
function raw(method: string, path: string, ip: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL(owo.url);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { "x-forwarded-for": ip, "content-type": "application/x-www-form-urlencoded" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(method === "GET" || method === "HEAD" ? undefined : "email=a%40b.ng&password=guess");
  });
}

let nextIp = 1;
const spellings: [method: string, path: string, routed: string][] = [
  ["POST", "/api/auth/callback/%63redentials", "/api/auth/callback/credentials"],
  ["POST", "/./api/auth/callback/credentials", "/api/auth/callback/credentials"],
  ["POST", "/api/auth/callback/x/../credentials", "/api/auth/callback/credentials"],
  ["POST", "/api//auth/callback/credentials/", "/api/auth/callback/credentials"],
  ["POST", "http://owo.example/api/auth/callback/credentials", "/api/auth/callback/credentials"],
  ["POST", "/./signup", "/signup"],
  ["POST", "/%73ignup", "/signup"],
  // A server action runs on whatever page it is posted to: the sign-up form's, posted to the sign-in page.
  ["POST", "/signin", "/signin"],
  ["POST", "/docs/limits", "/docs/limits"],
];

for (const [method, path, routed] of spellings) {
  test(`${method} ${path} is limited as ${routed} and routed as that`, async () => {
    const ip = `198.51.100.${nextIp++}`;
    const statuses: number[] = [];
    seen.length = 0;
    for (let i = 0; i < LIMIT + 3; i++) statuses.push(await raw(method, path, ip));
    assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429, 429, 429]);
    assert.deepEqual(new Set(seen), new Set([`${method} ${routed}`]), "Next is handed the canonical path");
  });
}

// The hosted checkout and a payment link's pages are the front's own: limited on their canonical path too, never Next's.
const ownPages: [method: string, path: string][] = [
  ["GET", "/%2E/checkout/lnk_1"],
  ["POST", "/./pay/shop-abc"],
  ["POST", "/pay/%2e/shop-abc"],
  ["GET", "/./pay/shop-abc"],
  ["HEAD", "/pay/shop-abc"],
  ["GET", "/pay\\shop-abc"],
  ["GET", "/pay/x/../shop-abc/done?paymentReference=lnk-1"],
];

for (const [method, path] of ownPages) {
  test(`${method} ${path}, the front's own page, is limited on its canonical path and never reaches Next`, async () => {
    const ip = `198.51.100.${nextIp++}`;
    const statuses: number[] = [];
    seen.length = 0;
    for (let i = 0; i < LIMIT + 3; i++) statuses.push(await raw(method, path, ip));
    assert.deepEqual(statuses, [...Array(LIMIT).fill(404), 429, 429, 429], "no such payment or link, then limited");
    assert.deepEqual(seen, []);
  });
}

test("the canonical form decodes once, keeps what a segment may carry and never fails", () => {
  assert.deepEqual(canonicalPath("/pay/%ff?x=1"), { segments: ["pay", "%ff"], path: "/pay/%25ff" });
  assert.deepEqual(canonicalPath("/pay/a%2Fb"), { segments: ["pay", "a/b"], path: "/pay/a%2Fb" });
  assert.deepEqual(canonicalPath("/pay/%252e%252e/x"), { segments: ["pay", "%2e%2e", "x"], path: "/pay/%252e%252e/x" });
  assert.equal(
    canonicalPath("/_next/static/chunks/app/pay/%5Bslug%5D/page-1a2b.js").path,
    "/_next/static/chunks/app/pay/%5Bslug%5D/page-1a2b.js",
  );
  assert.equal(canonicalPath("/api/trpc/payments.list,links.list").path, "/api/trpc/payments.list,links.list");
  assert.equal(canonicalPath("/").path, "/");
  assert.equal(canonicalPath("*").path, "/");
  assert.equal(canonicalPath("/../../etc/passwd").path, "/etc/passwd");
});

test("an undecodable page path reaches its page as one that does not exist, not as an error", async () => {
  seen.length = 0;
  assert.equal(await raw("GET", "/pay/%ff", "198.51.100.200"), 404, "the payment link's own not-found page");
  assert.equal(await raw("GET", "/checkout/%ff%fe", "198.51.100.200"), 404, "the checkout's own not-found page");
  assert.equal(await raw("GET", "/docs/%ff", "198.51.100.200"), 200);
  assert.deepEqual(seen, ["GET /docs/%25ff"]);
});

test("the machine doors answer any spelling of their paths the same way", async () => {
  const res = await fetch(`${owo.url}/api/v2/%62anks`);
  assert.equal(res.status, 200);
  assert.equal((await res.json()).status, "SUCCESS");
  assert.equal(await raw("GET", "/./api/health", "198.51.100.201"), 200);
});
