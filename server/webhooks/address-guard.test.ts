import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { describe, it } from "node:test";
import { checkDestination, checkUrlShape, guardedLookup, hostOf, isPublicAddress, refusalReason } from "./address-guard";

type Lookup = { err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function lookupWith(allowPrivate: boolean, hostname: string, all: boolean): Promise<Lookup> {
  return new Promise((resolve) => {
    guardedLookup(allowPrivate)(hostname, { all }, (err, address, family) => resolve({ err, address, family }));
  });
}

/** Everything the sender does before a socket opens: the URL, its literal host, then DNS. */
async function refusalBeforeConnect(url: string): Promise<string | null> {
  const destination = checkDestination(url, false);
  if (!destination.ok) return destination.reason;
  const { err } = await lookupWith(false, hostOf(destination.url), true);
  return err ? err.message : null;
}

const HOSTILE_URLS = [
  "http://localhost/",
  "http://LOCALHOST./",
  "http://api.localhost/",
  "http://127.0.0.1/",
  "http://127.255.255.254:8080/",
  "http://127.0.0.1./",
  "http://[::1]/",
  "http://[0:0:0:0:0:0:0:1]/",
  "http://[::]/",
  "http://0.0.0.0/",
  "http://0/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::ffff:10.0.0.1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[64:ff9b::127.0.0.1]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[2002:7f00:1::]/",
  "http://[fd00::1]/",
  "http://[fc00::abcd]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://[2001:db8::1]/",
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://169.254.169.254/latest/meta-data",
  "http://169.254.0.1/",
  "http://224.0.0.1/",
  "http://239.255.255.250/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.2.1/",
  "http://198.51.100.7/",
  "http://203.0.113.9/",
  "http://198.18.0.1/",
  "http://198.19.255.255/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://017700000001/",
  "http://127.1/",
  "http://0177.0.0.1/",
  "http://0x7f.1/",
  "http://%31%32%37.0.0.1/",
  "http://0xa9fea9fe/",
  "ftp://example.com/",
  "file:///etc/passwd",
  "gopher://example.com/",
  "javascript:alert(1)",
  "http://user:pass@example.com",
  "http://user@example.com",
  "https://[::1]:8443/hook",
  "not a url",
];

describe("hostile URLs are refused before any connection", () => {
  it("has at least 30 cases", () => assert.ok(HOSTILE_URLS.length >= 30));
  for (const url of HOSTILE_URLS) {
    it(url, async () => {
      const reason = await refusalBeforeConnect(url);
      assert.ok(reason, `${url} was let through`);
      // A DNS failure would also stop it, but must not be what stops these.
      assert.match(reason, /^(refused: |scheme |credentials |not a valid URL)/);
    });
  }
});

describe("isPublicAddress", () => {
  const refused = [
    "127.0.0.1",
    "127.8.9.10",
    "::1",
    "0.0.0.0",
    "0.1.2.3",
    "10.1.2.3",
    "172.16.0.0",
    "172.31.0.1",
    "192.168.0.1",
    "100.64.0.0",
    "100.127.255.255",
    "169.254.169.254",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fc00::",
    "fdff:ffff::1",
    "224.0.0.251",
    "ff02::fb",
    "240.0.0.0",
    "255.255.255.255",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:192.168.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::10.0.0.1",
    "192.0.2.255",
    "198.51.100.1",
    "203.0.113.255",
    "2001:db8::",
    "2001:db8:ffff::1",
    "198.18.0.0",
    "198.19.1.1",
    "::127.0.0.1",
    "2001::1",
    "fec0::1",
    "100::1",
    "3fff::1",
    "2002:a00:1::1",
    "1::1",
    "not-an-ip",
  ];
  for (const ip of refused) it(`refuses ${ip}`, () => assert.equal(isPublicAddress(ip), false));

  const allowed = [
    "8.8.8.8",
    "1.1.1.1",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.0",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.0",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ];
  for (const ip of allowed) it(`allows ${ip}`, () => assert.equal(isPublicAddress(ip), true));

  it("says why", () => {
    assert.equal(refusalReason("127.0.0.1"), "a loopback address");
    assert.equal(refusalReason("::ffff:127.0.0.1"), "IPv4-mapped 127.0.0.1, a loopback address");
    assert.match(refusalReason("169.254.169.254") ?? "", /link-local/);
    assert.equal(refusalReason("93.184.216.34"), null);
  });
});

describe("checkUrlShape", () => {
  it("accepts http and https with a host", () => {
    const result = checkUrlShape("https://hooks.example.com:8443/owo?x=1");
    assert.ok(result.ok);
    assert.equal(result.url.port, "8443");
    assert.ok(checkUrlShape("http://example.com").ok);
  });
  it("names the reason", () => {
    assert.deepEqual(checkUrlShape("ftp://example.com/"), { ok: false, reason: "scheme ftp is not allowed (http or https only)" });
    assert.deepEqual(checkUrlShape("http://u:p@example.com/"), { ok: false, reason: "credentials in the URL are not allowed" });
    assert.deepEqual(checkUrlShape("::"), { ok: false, reason: "not a valid URL" });
  });
  it("normalises odd IPv4 spellings to dotted form", () => {
    for (const url of ["http://2130706433/", "http://0x7f000001/", "http://017700000001/", "http://127.1/", "http://0177.0.0.1/"]) {
      const result = checkUrlShape(url);
      assert.ok(result.ok);
      assert.equal(hostOf(result.url), "127.0.0.1");
      assert.deepEqual(checkDestination(url, false), { ok: false, reason: "refused: 127.0.0.1 is a loopback address" });
    }
  });
  it("lets private literals through when private callbacks are allowed", () => {
    assert.ok(checkDestination("http://127.0.0.1:3000/hook", true).ok);
    assert.ok(checkDestination("http://localhost:3000/hook", true).ok);
    assert.equal(checkDestination("file:///etc/passwd", true).ok, false);
  });
});

describe("guardedLookup", () => {
  it("refuses a name resolving to loopback, saying which address and why", async () => {
    for (const all of [true, false]) {
      const { err } = await lookupWith(false, "localhost", all);
      assert.ok(err);
      assert.match(err.message, /^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address$/);
      assert.equal(err.code, "ERR_OWO_ADDRESS_REFUSED");
    }
  });
  it("honours options.all when allowed", async () => {
    const many = await lookupWith(true, "localhost", true);
    assert.equal(many.err, null);
    assert.ok(Array.isArray(many.address) && many.address.length > 0);
    const one = await lookupWith(true, "localhost", false);
    assert.equal(one.err, null);
    assert.equal(typeof one.address, "string");
    assert.ok(one.family === 4 || one.family === 6);
  });
  it("checks IP literals handed to it", async () => {
    const { err } = await lookupWith(false, "10.0.0.1", false);
    assert.equal(err?.message, "refused: 10.0.0.1 is a private address (RFC 1918)");
  });
  it("passes DNS failures through", async () => {
    const { err } = await lookupWith(false, "no-such-host.invalid", true);
    assert.ok(err);
    assert.notEqual(err.code, "ERR_OWO_ADDRESS_REFUSED");
  });
});
