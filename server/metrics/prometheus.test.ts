// GET /metrics as an operator sees it: a real Prometheus scrapes a running Owo under a little load (sandbox and live
// initiations, a refused request, a paid transfer and its callback, a provider failing until it rests) and the
// test asks Prometheus's HTTP API for the series the dashboard in deploy/grafana reads. Then who may read /metrics.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { after, before, test } from "node:test";
import { call, createTestMerchant, tokenFor, type Owo } from "../testing/harness";
import { startInitiating, transferBody, ussdBody, trpcInput, type InitiatingMerchant } from "../testing/initiation";
import { spawnDouble, spawnOwo, databaseIn, type DoubleProcess } from "../testing/processes";
import { startPrometheus, type Prometheus } from "../testing/prometheus";
import { eventually } from "../testing/eventually";
import { credit } from "../testing/in-process-payments";
import { startReceiver, type Receiver } from "../testing/receiver";
import { connectProvider } from "../providers/accounts";
import { createLiveKeys } from "../auth/api-keys";
import { dialect } from "../../db/client";

let sandbox: InitiatingMerchant;
let owo: Owo;
let double: DoubleProcess;
let receiver: Receiver;
let prometheus: Prometheus;
let live: { publicKey: string; token: string; providerId: string };

before(async () => {
  sandbox = await startInitiating({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "10000" });
  owo = sandbox.owo;
  receiver = await startReceiver();
  double = await spawnDouble("paystack", { "secret-key": "sk_test_metrics_paystack" });
  const m = await createTestMerchant("metrics live shop");
  const { providerId } = await connectProvider(m.merchantId, {
    provider: "paystack",
    credentials: { secretKey: "sk_test_metrics_paystack" },
    baseUrl: double.url,
  });
  const keys = await createLiveKeys(m.merchantId);
  live = { publicKey: keys.publicKey, token: await tokenFor(owo, keys), providerId };
  prometheus = await startPrometheus([new URL(owo.url).host]);
});
after(async () => {
  await prometheus?.stop();
  await double?.stop();
  await receiver?.stop();
  await owo?.stop();
});

const initiate = (token: string, body: Record<string, unknown>) => call(owo, "POST", "/api/v2/payments/initiates", { token, body });

async function scraped(promql: string, ready: (v: number) => boolean): Promise<number> {
  return eventually(
    `prometheus to read ${promql}`,
    async () => {
      const [first] = await prometheus.query(promql);
      return first !== undefined && ready(first.value) ? first.value : undefined;
    },
    30_000,
  );
}

test("Prometheus scrapes requests, initiations, state changes, provider calls and circuits, callbacks and queues", async () => {
  assert.equal(await scraped(`up{job="owo"}`, (v) => v === 1), 1);
  const { merchant, token, trpc } = sandbox;
  const first = ussdBody(merchant.publicKey);
  assert.equal((await initiate(token, first)).status, 200);
  for (let i = 0; i < 11; i++) assert.equal((await initiate(token, ussdBody(merchant.publicKey))).status, 200);
  assert.equal((await initiate(token, first)).status, 200, "the same request again is a replay");
  const refused = await initiate(token, { ...first, amount: "2500" });
  assert.equal(refused.status, 409, "the same reference with another amount");
  const refusedCode = String(refused.json.data.code);
  const opened = await trpc.initiatePayment.mutate(
    trpcInput(transferBody(merchant.publicKey, { callbackUrl: receiver.url("/cb") })) as Parameters<typeof trpc.initiatePayment.mutate>[0],
  );
  assert.ok("accountNumber" in opened);
  await credit(opened.accountNumber);
  await eventually("the callback to be delivered", () => receiver.received.length > 0);
  // Paid at the sandbox bank, which then settles the day 10 naira short: one net_mismatch for a person to look at.
  const paid = transferBody(merchant.publicKey, { callbackUrl: receiver.url("/paid") });
  assert.equal((await initiate(token, paid)).status, 200);
  const simulated = await call(owo, "POST", `/api/v2/sandbox/payments/${String(paid.paymentReference)}/simulate`, {
    token,
    body: { outcome: "pay" },
  });
  assert.equal(simulated.status, 200);
  const settled = await call(owo, "POST", "/api/v2/sandbox/settlements", { token, body: { shortBy: "10.00" } });
  assert.equal(settled.status, 200);

  // Live: two issued by the Paystack double, then it answers 5xx until the account rests (five failures in a minute).
  for (let i = 0; i < 2; i++) assert.equal((await initiate(live.token, transferBody(live.publicKey))).status, 200);
  await fetch(`${double.url}/_double/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ kind: "5xx", times: 5 }),
  });
  for (let i = 0; i < 5; i++) assert.equal((await initiate(live.token, transferBody(live.publicKey))).status, 502);

  assert.equal(await scraped(`up{job="owo"}`, (v) => v === 1), 1);
  const issued = `sum(owo_initiations_total{mode="test",channel="USSD",provider="sandbox",outcome="issued"})`;
  assert.equal(await scraped(issued, (v) => v >= 12), 12);
  assert.equal(await scraped(`sum(owo_initiations_total{mode="test",outcome="${refusedCode}"})`, (v) => v >= 1), 1);
  assert.equal(await scraped(`sum(owo_initiations_total{mode="test",outcome="replayed"})`, (v) => v >= 1), 1);
  assert.equal(await scraped(`sum(owo_initiations_total{mode="live",provider="paystack",outcome="issued"})`, (v) => v >= 2), 2);
  assert.equal(await scraped(`sum(owo_initiations_total{mode="live",outcome="S502"})`, (v) => v >= 5), 5);
  const rest = `sum(owo_http_requests_total{door="rest",route="/api/v2/payments/initiates",method="POST",status="200"})`;
  assert.equal(await scraped(rest, (v) => v >= 16), 16);
  const procedure = `sum(owo_http_requests_total{door="trpc",route="/api/trpc/initiatePayment"})`;
  assert.equal(await scraped(procedure, (v) => v >= 1), 1);
  // The dashboard takes rate() over its window; over the whole run here, so the answer does not hang on scrape timing.
  const p99 = `histogram_quantile(0.99, sum by (le) (owo_http_request_duration_seconds_bucket{door="rest"}))`;
  assert.ok((await scraped(p99, (v) => Number.isFinite(v))) > 0);
  assert.equal(await scraped(`sum(owo_payment_events_total{event="successful",status="SUCCESSFUL"})`, (v) => v >= 2), 2);
  assert.equal(await scraped(`sum(owo_provider_calls_total{provider="paystack",outcome="ok"})`, (v) => v >= 2), 2);
  assert.equal(await scraped(`sum(owo_provider_calls_total{provider="paystack",outcome="unavailable"})`, (v) => v >= 5), 5);
  const [okCall] = await prometheus.query(`owo_provider_calls_total{provider="paystack",outcome="ok"}`);
  assert.match(okCall?.metric.operation ?? "", /^POST \/[a-z_/]+$/, "an operation label carries no reference");
  const resting = `owo_provider_circuit_resting{provider="paystack",provider_account="${live.providerId}"}`;
  assert.equal(await scraped(resting, (v) => v === 1), 1);
  assert.equal(await scraped(`sum(owo_callback_attempts_total{result="delivered"})`, (v) => v >= 2), 2);
  assert.equal(await scraped(`owo_callback_queue_depth`, (v) => v === 0), 0);
  assert.equal(await scraped(`owo_callback_oldest_due_age_seconds`, (v) => v === 0), 0);
  assert.ok((await scraped(`owo_mail_queue_depth`, (v) => v >= 0)) >= 0);
  const mismatches = `owo_reconciliation_exceptions_open{mode="test",kind="net_mismatch"}`;
  assert.equal(await scraped(mismatches, (v) => v >= 1), 1);
  assert.equal(await scraped(`owo_ledger_imbalance_kobo{mode="test"}`, () => true), 0, "every posting balances");
  assert.equal(await scraped(`owo_ledger_imbalance_kobo{mode="live"}`, () => true), 0);
  assert.ok((await scraped(`process_resident_memory_bytes{job="owo"}`, (v) => v > 0)) > 1e6);
});

test("every panel of deploy/grafana's dashboard is a query Prometheus accepts, over series it has scraped", async () => {
  const dashboard = JSON.parse(readFileSync("deploy/grafana/owo-dashboard.json", "utf8")) as { panels: { targets: { expr: string }[] }[] };
  const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr.replaceAll("$__rate_interval", "1m")));
  const res = await fetch(`${prometheus.url}/api/v1/label/__name__/values`);
  const known = new Set(((await res.json()) as { data: string[] }).data);
  const onPostgres = dialect() === "postgres";
  for (const expr of exprs) {
    await prometheus.query(expr); // throws on a query Prometheus refuses
    for (const [name] of expr.matchAll(/\b(?:owo|process|nodejs)_[a-z0-9_]+/g)) {
      // The pool is PostgreSQL's; SQLite has one connection and no pool to report.
      if (name === "owo_db_pool_connections" && !onPostgres) continue;
      assert.ok(known.has(name), `${name} (in ${expr}) is scraped`);
    }
  }
});

test("a raw path never becomes a label: unknown pages and procedures fold into one series each", async () => {
  for (const path of ["/no-such-page-1", "/no-such-page-2", "/api/trpc/nope.one", "/api/trpc/nope.two"]) await call(owo, "GET", path);
  const res = await fetch(`${owo.url}/metrics`);
  const text = await res.text();
  assert.doesNotMatch(text, /no-such-page|nope\./);
  assert.match(text, /owo_http_requests_total\{door="page",route="\/\{other\}",method="GET",status="404"\} 2/);
  assert.match(text, /owo_http_requests_total\{door="trpc",route="\/api\/trpc\/\{unknown\}",method="GET",status="404"\} 2/);
});

test("without OWO_METRICS_TOKEN only loopback reads /metrics, and a forwarded address counts", async () => {
  const direct = await fetch(`${owo.url}/metrics`);
  assert.equal(direct.status, 200);
  assert.match(direct.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const forwarded: Record<string, string>[] = [
    { "x-forwarded-for": "203.0.113.9" },
    { "x-forwarded-for": "127.0.0.1, 203.0.113.9" },
    { "x-real-ip": "198.51.100.4" },
    { forwarded: 'for="[2001:db8::1]:4711"' },
  ];
  for (const headers of forwarded) {
    const res = await call(owo, "GET", "/metrics", { headers });
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.equal(res.json.data.code, "S3");
  }
  assert.equal((await call(owo, "GET", "/metrics", { headers: { "x-forwarded-for": "127.0.0.1" } })).status, 200);
  assert.equal((await call(owo, "POST", "/metrics")).status, 405);
});

test("with OWO_METRICS_TOKEN the bearer token is needed, and enough, from any address", async () => {
  const token = "metrics-token-0123456789abcdef";
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
  const instance = await spawnOwo(databaseIn(owo.dataDir), { OWO_METRICS_TOKEN: token });
  try {
    assert.equal((await call(instance, "GET", "/metrics")).status, 401);
    assert.equal((await call(instance, "GET", "/metrics", { token: "metrics-token-wrong-wrong-wrong" })).status, 401);
    const ok = await call(instance, "GET", "/metrics", { token, headers: { "x-forwarded-for": "203.0.113.9" } });
    assert.equal(ok.status, 200);
    assert.match(ok.text, /^owo_callback_queue_depth \d+$/m);
    if (external) {
      const far = `http://${external}:${new URL(instance.url).port}`;
      const refused = await fetch(`${far}/metrics`).catch(() => null);
      // The spawned instance listens on every address; reached from a non-loopback one it still wants the token.
      if (refused) assert.equal(refused.status, 401);
    }
  } finally {
    instance.child.kill("SIGTERM");
    await instance.exited;
  }
});
