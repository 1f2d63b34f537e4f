import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { guardedLookup } from "./address-guard";
import { postSigned } from "./sender";
import { generateSigningSecret, signatureHeaders } from "./signing";

type Seen = { path: string; headers: http.IncomingHttpHeaders; body: string };

let server: http.Server;
let port = 0;
let connections = 0;
const seen: Seen[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ path: req.url ?? "", headers: req.headers, body });
      switch (req.url) {
        case "/ok":
          return res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
        case "/redirect":
          return res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end("moved");
        case "/gone":
          return res.writeHead(410).end("endpoint removed");
        case "/big":
          return res.writeHead(200).end("x".repeat(5000));
        case "/slow":
          return; // never answers
        default:
          return res.writeHead(500).end("boom");
      }
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const body = JSON.stringify({ notificationItems: [] });
const send = (url: string, allowPrivate: boolean, timeoutMs?: number) =>
  postSigned({ url, headers: { "webhook-id": "evt_1" }, body, allowPrivate, timeoutMs });

describe("postSigned with private callbacks refused", () => {
  it("refuses every spelling of the local listener, and it sees no connection", async () => {
    const hostile = [
      `http://127.0.0.1:${port}/ok`,
      `http://localhost:${port}/ok`,
      `http://LocalHost.:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      `http://[::ffff:7f00:1]:${port}/ok`,
      `http://[64:ff9b::7f00:1]:${port}/ok`,
      `http://[::1]:${port}/ok`,
      `http://2130706433:${port}/ok`,
      `http://0x7f000001:${port}/ok`,
      `http://017700000001:${port}/ok`,
      `http://127.1:${port}/ok`,
      `http://0177.0.0.1:${port}/ok`,
      `http://0:${port}/ok`,
      `http://0.0.0.0:${port}/ok`,
      `https://127.0.0.1:${port}/ok`,
    ];
    for (const url of hostile) {
      const result = await send(url, false);
      assert.equal(result.delivered, false, url);
      assert.equal(result.statusCode, null, url);
      assert.match(result.error ?? "", /^refused: /, url);
    }
    assert.equal(connections, 0);
    assert.equal(seen.length, 0);
  });

  it("says which address was refused and why", async () => {
    const literal = await send(`http://127.0.0.1:${port}/ok`, false);
    assert.equal(literal.error, "refused: 127.0.0.1 is a loopback address");
    const mapped = await send(`http://[::ffff:127.0.0.1]:${port}/ok`, false);
    assert.equal(mapped.error, "refused: ::ffff:7f00:1 is IPv4-mapped 127.0.0.1, a loopback address");
  });

  it("refuses at connect time a hostname that resolves to loopback", async () => {
    // Straight through http.request, past the sender's name check, so only the lookup guard stands.
    const before = connections;
    const error = await new Promise<Error>((resolve, reject) => {
      const req = http.request({ host: "localhost", port, path: "/ok", method: "POST", agent: false, lookup: guardedLookup(false) });
      req.on("response", () => reject(new Error("connected")));
      req.on("error", resolve);
      req.end();
    });
    assert.match(error.message, /^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address$/);
    assert.equal(connections, before);
  });

  it("turns a bad URL into a result", async () => {
    assert.equal((await send("ftp://example.com/", false)).error, "bad URL: scheme ftp is not allowed (http or https only)");
    assert.equal((await send("nonsense", false)).error, "bad URL: not a valid URL");
    assert.equal((await send("http://u:p@example.com/", false)).error, "bad URL: credentials in the URL are not allowed");
  });

  it("turns a DNS failure into a result", async () => {
    const result = await send("http://no-such-host.invalid/hook", false);
    assert.match(result.error ?? "", /^DNS lookup failed for no-such-host\.invalid/);
    assert.equal(result.delivered, false);
  });
});

describe("postSigned with private callbacks allowed", () => {
  it("delivers on 200 with our headers and the exact body", async () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ eventId: "evt_9", timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
    const result = await postSigned({ url: `http://127.0.0.1:${port}/ok`, headers, body, allowPrivate: true });
    assert.deepEqual(
      { ...result, latencyMs: 0 },
      {
        statusCode: 200,
        latencyMs: 0,
        responseSnippet: "thanks",
        error: null,
        delivered: true,
        gone: false,
      },
    );
    assert.ok(result.latencyMs >= 0);
    const request = seen.at(-1);
    assert.ok(request);
    assert.equal(request.body, body);
    assert.equal(request.headers["content-type"], "application/json");
    assert.equal(request.headers["user-agent"], "Owo-Webhooks/1");
    assert.equal(request.headers["webhook-id"], "evt_9");
    assert.equal(request.headers["webhook-signature"], headers["webhook-signature"]);
  });

  it("reaches localhost by name", async () => {
    assert.equal((await send(`http://localhost:${port}/ok`, true)).delivered, true);
  });

  it("does not follow a 302 and does not count it delivered", async () => {
    const result = await send(`http://127.0.0.1:${port}/redirect`, true);
    assert.equal(result.statusCode, 302);
    assert.equal(result.delivered, false);
    assert.equal(result.error, "answered 302; redirects are not followed");
    assert.equal(
      seen.some((s) => s.path === "/elsewhere"),
      false,
    );
  });

  it("marks 410 as gone", async () => {
    const result = await send(`http://127.0.0.1:${port}/gone`, true);
    assert.deepEqual([result.statusCode, result.gone, result.delivered], [410, true, false]);
    assert.equal(result.responseSnippet, "endpoint removed");
  });

  it("reports a 500 as not delivered", async () => {
    const result = await send(`http://127.0.0.1:${port}/fail`, true);
    assert.deepEqual([result.statusCode, result.delivered, result.error], [500, false, "answered 500"]);
  });

  it("gives up on a slow receiver at the timeout", async () => {
    const result = await send(`http://127.0.0.1:${port}/slow`, true, 300);
    assert.equal(result.error, "timed out after 300 ms");
    assert.equal(result.statusCode, null);
    assert.equal(result.delivered, false);
    assert.ok(result.latencyMs >= 290 && result.latencyMs < 2000, `latency ${result.latencyMs}`);
  });

  it("caps the response snippet at 1024 bytes", async () => {
    const result = await send(`http://127.0.0.1:${port}/big`, true);
    assert.equal(result.delivered, true);
    assert.equal(result.responseSnippet, "x".repeat(1024));
  });

  it("turns a refused connection into a result", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await send(`http://127.0.0.1:${closedPort}/ok`, true);
    assert.equal(result.error, "connection refused by 127.0.0.1");
    assert.equal(result.delivered, false);
  });
});
