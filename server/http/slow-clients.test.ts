// Slow and idle clients are cut off, and one address cannot hold every connection, while everyone else is served.
import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { after, before, test } from "node:test";
import { startOwo, type Owo } from "../testing/harness";

const CAP = 3;
let owo: Owo;
before(async () => {
  owo = await startOwo(
    { OWO_MAX_CONNECTIONS_PER_IP: String(CAP) },
    { host: "0.0.0.0", timeouts: { headersMs: 1000, requestMs: 2000, keepAliveMs: 1000 } },
  );
});
after(() => owo.stop());

const port = () => Number(new URL(owo.url).port);
/** This machine's own non-loopback address: a connection to it comes from it, so it is not exempt as loopback is. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

type Watched = { socket: Socket; received: () => string; closedAfterMs: Promise<number> };
function open(host: string): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ host, port: port() });
    let text = "";
    socket.on("data", (d) => (text += d.toString()));
    const closedAfterMs = new Promise<number>((r) => socket.on("close", () => r(Date.now() - started)));
    socket.once("error", () => undefined);
    socket.once("connect", () => resolve({ socket, received: () => text, closedAfterMs }));
    socket.once("error", reject);
  });
}

async function healthy(): Promise<boolean> {
  return (await fetch(`${owo.url}/api/health`)).status === 200;
}

/** Keeps writing `bytes` one at a time, each `everyMs`, until the socket is gone. */
function trickle(socket: Socket, bytes: string, everyMs: number) {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= bytes.length) return clearInterval(timer);
    socket.write(bytes[i++] ?? "");
  }, everyMs);
}

test("a client sending its headers a byte at a time is cut off with 408 while others are served", async () => {
  const slow = await open("127.0.0.1");
  slow.socket.write("GET /api/health HTTP/1.1\r\nHost: owo\r\n");
  trickle(slow.socket, "X-Slow: " + "a".repeat(200), 100);
  for (let i = 0; i < 5; i++) {
    assert.ok(await healthy(), "others are served meanwhile");
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = await slow.closedAfterMs;
  assert.ok(ms < 4000, `cut off after ${ms} ms`);
  assert.match(slow.received(), /^HTTP\/1\.1 408/);
});

test("a client trickling its body is cut off at the request timeout", async () => {
  const slow = await open("127.0.0.1");
  slow.socket.write("POST /api/v2/encrypt/keys HTTP/1.1\r\nHost: owo\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n");
  trickle(slow.socket, "{" + " ".repeat(398) + "}", 100);
  assert.ok(await healthy());
  const ms = await slow.closedAfterMs;
  assert.ok(ms < 5000, `cut off after ${ms} ms`);
});

test("an idle kept-alive connection is closed after the keep-alive timeout", async () => {
  const idle = await open("127.0.0.1");
  idle.socket.write("GET /api/health HTTP/1.1\r\nHost: owo\r\n\r\n");
  const ms = await idle.closedAfterMs;
  assert.match(idle.received(), /^HTTP\/1\.1 200/);
  assert.ok(ms >= 900 && ms < 4000, `closed after ${ms} ms`);
});

test(
  "one address holds at most OWO_MAX_CONNECTIONS_PER_IP connections; loopback is exempt",
  { skip: outside ? false : "no non-loopback address on this machine" },
  async () => {
    const host = outside as string;
    const held = await Promise.all(Array.from({ length: CAP }, () => open(host)));
    const refused = await open(host);
    assert.ok((await refused.closedAfterMs) < 500, "the connection over the cap is closed at once");
    assert.equal(refused.received(), "");
    for (const h of held) assert.equal(h.socket.destroyed, false, "the first ones stay open");
    // Loopback (a local proxy, the bench) is not counted: well over the cap at once.
    const local = await Promise.all(Array.from({ length: CAP * 3 }, () => open("127.0.0.1")));
    for (const l of local) assert.equal(l.socket.destroyed, false);
    for (const l of local) l.socket.destroy();
    assert.ok(await healthy());
    // A held connection closing frees its place.
    held[0]?.socket.destroy();
    await held[0]?.closedAfterMs;
    await new Promise((r) => setTimeout(r, 50));
    const again = await open(host);
    again.socket.write("GET /api/health HTTP/1.1\r\nHost: owo\r\nConnection: close\r\n\r\n");
    await again.closedAfterMs;
    assert.match(again.received(), /^HTTP\/1\.1 200/);
    for (const h of held) h.socket.destroy();
  },
);
