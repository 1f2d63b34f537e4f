// Existing SeerBit clients' wire habits over raw sockets (API.md "Working with existing SeerBit clients").
import assert from "node:assert/strict";
import type { Server } from "node:http";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import { call, freePort, type Owo } from "../testing/harness";
import { startInitiating, ussdBody, type InitiatingMerchant } from "../testing/initiation";
import { createFront } from "./front";

let owo: Owo;
let m: InitiatingMerchant;
let reference: string;
before(async () => {
  m = await startInitiating();
  owo = m.owo;
  const body = ussdBody(m.merchant.publicKey);
  reference = String(body.paymentReference);
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body })).status, 200);
});
after(() => owo.stop());

/** Writes each piece in turn (a pause between them) and reads until the server closes the connection. */
async function rawExchange(url: string, pieces: string[], pauseMs = 30): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on("data", (d: Buffer) => received.push(d));
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, pauseMs));
    if (!socket.destroyed) socket.write(piece);
  }
  const timer = setTimeout(() => socket.destroy(), 5000);
  await closed;
  clearTimeout(timer);
  return Buffer.concat(received).toString("utf8");
}

/** Every response in a raw stream: status and parsed JSON body (responses here are framed by Content-Length). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected field by field
function responses(raw: string): { status: number; headers: string; json: any }[] {
  const out = [];
  let rest = raw;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    assert.ok(headEnd > 0, `an HTTP head in ${JSON.stringify(rest.slice(0, 200))}`);
    const head = rest.slice(0, headEnd);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    assert.ok(Number.isInteger(length), `framed by Content-Length: ${head}`);
    const bodyBytes = Buffer.from(rest.slice(headEnd + 4), "utf8");
    out.push({ status: Number(head.split(" ")[1]), headers: head, json: JSON.parse(bodyBytes.subarray(0, length).toString("utf8")) });
    rest = bodyBytes.subarray(length).toString("utf8");
  }
  return out;
}

const host = () => new URL(owo.url).host;

test("a GET with an unframed body and Connection: close (SeerBit's Node SDK) gets the real answer, once", async () => {
  // A found payment is answered after an await; an unknown one at once, before the parser reaches the body.
  for (const [ref, status] of [
    [reference, 200],
    ["no-such-order", 404],
  ] as const) {
    const body = JSON.stringify({ paymentReference: ref, publicKey: m.merchant.publicKey, query: ref });
    const head =
      `GET /api/v3/payments/query/${ref} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${m.token}\r\n` +
      `Content-Type: application/json\r\nCache-Control: no-cache\r\nAccept-Charset: utf-8\r\nConnection: close\r\n\r\n`;
    // Together in one segment (the parse error comes while the answer is being made) and apart (it comes after).
    for (const pieces of [[head + body], [head, body]]) {
      const answers = responses(await rawExchange(owo.url, pieces));
      assert.equal(answers.length, 1, `one answer to ${ref}, no 400 from the parser after it`);
      assert.equal(answers[0]?.status, status);
      if (status === 200) assert.equal(answers[0]?.json.data.payments.status, "PENDING");
      else assert.equal(answers[0]?.json.data.code, "S404");
    }
  }
});

test("a GET whose body is framed by Content-Length is answered as if it had none, and the connection stays usable", async () => {
  const body = JSON.stringify({ query: reference });
  const verify = `GET /api/v2/payments/query/${reference} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${m.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const banks = `GET /api/v2/banks HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`;
  const answers = responses(await rawExchange(owo.url, [verify, banks]));
  assert.deepEqual(
    answers.map((a) => a.status),
    [200, 200],
  );
  assert.equal(answers[0]?.json.data.payments.paymentReference, reference);
  assert.ok(Array.isArray(answers[1]?.json.data.banks));
});

test("a chunked body (no Content-Length) with a charset on its Content-Type is read whole", async () => {
  const json = JSON.stringify({ key: `${m.merchant.secretKey}.${m.merchant.publicKey}` });
  const half = Math.floor(json.length / 2);
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  const head = `POST /api/v2/encrypt/keys HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json;charset=UTF-8\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  const answers = responses(await rawExchange(owo.url, [head + chunk(json.slice(0, half)), chunk(json.slice(half)) + "0\r\n\r\n"]));
  assert.equal(answers.length, 1);
  assert.equal(answers[0]?.status, 200);
  assert.match(answers[0]?.json.data.EncryptedSecKey.encryptedKey, /^owo_test_/);
});

test("the tRPC door reads a chunked body with a charset too", async () => {
  const input = JSON.stringify({
    json: {
      amount: 100,
      currency: "NGN",
      country: "NG",
      paymentReference: Date.now(),
      email: "ada@example.com",
      callbackUrl: "www.shop.ng/done",
    },
  });
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
  const head =
    `POST /api/trpc/standardCheckout HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: Bearer ${m.token}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  // tRPC's answers are not framed by Content-Length, so the raw text is read as it came.
  const raw = await rawExchange(owo.url, [head + chunk(input.slice(0, 20)), chunk(input.slice(20)) + "0\r\n\r\n"]);
  assert.match(raw, /^HTTP\/1\.1 200 /);
  assert.match(raw, /"redirectLink":"[^"]+\/checkout\/OWO\d{17}"/);
});

test("a garbage request with nothing in flight still gets the envelope's 400", async () => {
  const answers = responses(await rawExchange(owo.url, ["{not http}\r\n\r\n"]));
  assert.equal(answers.length, 1);
  assert.equal(answers[0]?.status, 400);
  assert.equal(answers[0]?.json.data.code, "S5");
});

test("every /api/ path Owo does not serve is the 404 envelope, never the page handler's HTML", async () => {
  // Stands in for Next: it answers every path it is handed with an HTML page, as Next's 404 page would.
  const front: Server = createFront((_req, res) => {
    res.setHeader("Content-Type", "text/html");
    res.end("<!DOCTYPE html><html><body>404: This page could not be found.</body></html>");
  });
  const port = await freePort();
  await new Promise<void>((r) => front.listen(port, "127.0.0.1", r));
  try {
    const base = { ...owo, url: `http://127.0.0.1:${port}` };
    for (const path of ["/api/v9/banks", "/api/v1/payments", "/api", "/api/nothing/here?x=1", "/api/v2/banks/unknown"]) {
      const res = await call(base, "GET", path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get("content-type") ?? "", /application\/json/, path);
      assert.equal(res.json?.data.code, "S404", path);
      assert.deepEqual(res.json?.data.errors, []);
    }
    const page = await call(base, "GET", "/dashboard");
    assert.match(page.text, /<html>/, "pages still go to the page handler");
    assert.match((await call(base, "GET", "/api/auth/session")).text, /<html>/, "Next's own /api/auth routes still go to Next");
  } finally {
    front.closeAllConnections();
    await new Promise((r) => front.close(r));
  }
});
