// Traces as an operator's collector receives them: Owo started with OTEL_EXPORTER_OTLP_ENDPOINT sends OTLP/HTTP to a
// receiver this test runs; each request is one server span named by its route template, with the provider call and
// the database transactions inside it, in one trace.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "./testing/harness";
import { transferBody, ussdBody } from "./testing/initiation";
import { databaseIn, spawnDouble, spawnOwo, type DoubleProcess, type OwoProcess } from "./testing/processes";
import { eventually } from "./testing/eventually";
import { connectProvider } from "./providers/accounts";
import { createLiveKeys } from "./auth/api-keys";
import { dialect } from "../db/client";

type KeyValue = { key: string; value: { stringValue?: string; intValue?: string | number } };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: KeyValue[] };
type Received = { service: string; span: OtlpSpan };

let owo: Owo;
let instance: OwoProcess;
let double: DoubleProcess;
let receiver: Server;
const received: Received[] = [];
const contentTypes = new Set<string>();
let live: { publicKey: string; secretKey: string };
let sandbox: { publicKey: string; secretKey: string };

const attribute = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue));
};

/** An OTLP/HTTP trace receiver: POST /v1/traces with ExportTraceServiceRequest as JSON. */
async function startOtlpReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      contentTypes.add(String(req.headers["content-type"]));
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as {
        resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const rs of request.resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        for (const ss of rs.scopeSpans) for (const span of ss.spans) received.push({ service, span });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

before(async () => {
  owo = await startOwo();
  double = await spawnDouble("paystack", { "secret-key": "sk_test_traces_paystack" });
  const m = await createTestMerchant("traced shop");
  await connectProvider(m.merchantId, { provider: "paystack", credentials: { secretKey: "sk_test_traces_paystack" }, baseUrl: double.url });
  live = await createLiveKeys(m.merchantId);
  sandbox = m;
  const otlp = await startOtlpReceiver();
  receiver = otlp.server;
  instance = await spawnOwo(databaseIn(owo.dataDir), { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: "100" });
});
after(async () => {
  instance?.child.kill("SIGTERM");
  await instance?.exited;
  await double?.stop();
  if (receiver) {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
  await owo?.stop();
});

/** The server span of the request answered with this X-Request-Id, and every span of its trace. */
async function traceOf(requestId: string): Promise<{ root: OtlpSpan; spans: OtlpSpan[] }> {
  const root = await eventually(`the span of ${requestId}`, () => received.find((r) => attribute(r.span, "owo.request_id") === requestId));
  assert.equal(root.service, "owo");
  // Children are exported in the same batch as their parent or before it.
  const spans = received.filter((r) => r.span.traceId === root.span.traceId).map((r) => r.span);
  return { root: root.span, spans };
}

test("a live initiation is one trace: the request's span holds the provider call and the database transactions", async () => {
  const token = await tokenFor(instance, live);
  const res = await call(instance, "POST", "/api/v2/payments/initiates", { token, body: transferBody(live.publicKey) });
  assert.equal(res.status, 200, res.text);
  const { root, spans } = await traceOf(res.headers.get("x-request-id") ?? "");
  assert.equal(root.name, "POST /api/v2/payments/initiates");
  assert.equal(root.kind, 2, "a server span");
  assert.equal(root.parentSpanId ?? "", "");
  assert.equal(attribute(root, "http.response.status_code"), "200");
  const children = spans.filter((s) => s.parentSpanId === root.spanId);
  const provider = children.find((s) => s.name.startsWith("paystack POST /"));
  assert.ok(provider, `a provider call span among ${children.map((s) => s.name).join(", ")}`);
  assert.equal(attribute(provider, "owo.outcome"), "ok");
  assert.doesNotMatch(provider.name, /\d{6}/, "the span's name carries no reference");
  const transactions = children.filter((s) => s.name === "db.transaction");
  assert.ok(transactions.length >= 2, "the reservation and the recording, each a transaction inside the request");
  assert.equal(attribute(transactions[0] as OtlpSpan, "db.system"), dialect());
  assert.ok(
    [...contentTypes].every((t) => t.startsWith("application/json")),
    [...contentTypes].join(),
  );
});

test("a sandbox initiation and a refused request are traced too, named by their route templates", async () => {
  const token = await tokenFor(instance, sandbox);
  const ok = await call(instance, "POST", "/api/v2/payments/initiates", { token, body: ussdBody(sandbox.publicKey) });
  assert.equal(ok.status, 200);
  const issued = await traceOf(ok.headers.get("x-request-id") ?? "");
  // Its database work inside the request: a transaction, or on PostgreSQL the one statement a sandbox initiation writes.
  const database = issued.spans.filter((s) => /^db\.(transaction|statement)$/.test(s.name) && s.parentSpanId === issued.root.spanId);
  assert.ok(database.length > 0, `a database span among ${issued.spans.map((s) => s.name).join(", ")}`);
  assert.equal(attribute(database[0] as OtlpSpan, "db.system"), dialect());
  const missing = await call(instance, "GET", "/api/v3/payments/query/no-such-ref-123", { token });
  assert.equal(missing.status, 404);
  const refused = await traceOf(missing.headers.get("x-request-id") ?? "");
  assert.equal(refused.root.name, "GET /api/v{2,3}/payments/query/{reference}");
  assert.equal(attribute(refused.root, "http.response.status_code"), "404");
});
