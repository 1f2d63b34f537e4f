// The Flutterwave connector against the Flutterwave double when things go wrong: every API fault the double injects
// surfaces as ProviderUnavailable, and every webhook fault (dropped, duplicated, replayed, reordered, lying about the
// amount) still leaves Owo reading one event once and Flutterwave's own record as the truth.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { ProviderUnavailable } from "../connector";
import { issueRequest, providerDouble } from "../../testing/provider-double";
import { flutterwave } from "./connector";

const fw = providerDouble(flutterwave, { secretKey: "FLWSECK_TEST-faults-X", secretHash: "faults-hash" }, { accountId: "prv_flw" });
// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const signal = () => AbortSignal.timeout(15_000);

/** The double's own log of what it sent, and Owo's answer to each ("dropped" for a delivery a fault swallowed). */
async function sentLog(): Promise<{ event: string; answer: number | string }[]> {
  return (await fw.control("GET", "/webhooks")).json.webhooks as { event: string; answer: number | string }[];
}

test("each API fault is ProviderUnavailable: 5xx, a hang past the deadline, a cut connection, nothing listening", async () => {
  await fw.control("POST", "/faults", { kind: "5xx", path: "/v3/charges" });
  await assert.rejects(flutterwave.issue(fw.account, issueRequest("USSD", 10000), signal()), /answered 503/);
  await fw.control("POST", "/faults", { kind: "hang", path: "/v3/transactions/verify_by_reference" });
  const started = Date.now();
  await assert.rejects(flutterwave.query(fw.account, "OWO-any", AbortSignal.timeout(300)), /no answer in time/);
  assert.ok(Date.now() - started < 1500);
  await fw.control("POST", "/faults", { kind: "disconnect" });
  await assert.rejects(
    flutterwave.issue(fw.account, issueRequest("TRANSFER", 10000), signal()),
    (e: unknown) => e instanceof ProviderUnavailable && /cannot be reached/.test(e.message),
  );
  await flutterwave.testConnection(fw.account, signal()); // the one-shot fault is spent
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  await assert.rejects(
    flutterwave.issue({ ...fw.account, baseUrl: `http://127.0.0.1:${closed}` }, issueRequest("USSD", 10000), signal()),
    /cannot be reached \(ECONNREFUSED\)/,
  );
});

test("webhook faults: dropped (the requery still sees the money), duplicated, replayed, reordered, wrong amount", async () => {
  await fw.control("POST", "/faults", { kind: "drop-webhook" });
  const dropped = issueRequest("USSD", 30000);
  await flutterwave.issue(fw.account, dropped, signal());
  await fw.control("POST", `/transactions/${dropped.reference}/pay`);
  assert.equal((await sentLog()).at(-1)?.answer, "dropped", "the double swallowed the webhook");
  assert.equal(fw.received.length, 0);
  assert.equal((await flutterwave.query(fw.account, dropped.reference, signal())).state, "paid");

  await fw.control("POST", "/faults", { kind: "duplicate-webhook" });
  const twice = issueRequest("USSD", 30000);
  await flutterwave.issue(fw.account, twice, signal());
  await fw.control("POST", `/transactions/${twice.reference}/pay`);
  const [a, b] = (await fw.webhooksAfter(0, 2)).raw;
  assert.ok(a && b);
  assert.equal(
    flutterwave.readNotice(fw.account, a.raw, a.headers).eventId,
    flutterwave.readNotice(fw.account, b.raw, b.headers).eventId,
    "one event id for both: applied once",
  );
  await fw.control("POST", "/webhooks/replay");
  const [, , replay] = (await fw.webhooksAfter(0, 3)).raw;
  assert.equal(
    flutterwave.readNotice(fw.account, replay!.raw, replay!.headers).eventId,
    flutterwave.readNotice(fw.account, a.raw, a.headers).eventId,
  );

  fw.received.length = 0;
  await fw.control("POST", "/faults", { kind: "reorder-webhooks", times: 2 });
  const first = issueRequest("USSD", 10000);
  const second = issueRequest("TRANSFER", 10000);
  await flutterwave.issue(fw.account, first, signal());
  await flutterwave.issue(fw.account, second, signal());
  await fw.control("POST", `/transactions/${first.reference}/pay`);
  await fw.control("POST", `/transactions/${second.reference}/pay`);
  const order = (await fw.webhooksAfter(0, 2)).raw.map((w) => {
    const r = flutterwave.readNotice(fw.account, w.raw, w.headers);
    return r.kind === "payment" ? r.reference : r.kind;
  });
  assert.deepEqual(order, [second.reference, first.reference]);

  fw.received.length = 0;
  await fw.control("POST", "/faults", { kind: "amount-mismatch" });
  const lying = issueRequest("USSD", 25000);
  await flutterwave.issue(fw.account, lying, signal());
  await fw.control("POST", `/transactions/${lying.reference}/pay`);
  const [hook] = (await fw.webhooksAfter(0, 1)).raw;
  const reading = flutterwave.readNotice(fw.account, hook!.raw, hook!.headers);
  assert.equal(reading.kind === "payment" && reading.amountKobo, 125000, "the webhook claims ₦1,250.00");
  assert.equal((await flutterwave.query(fw.account, lying.reference, signal())).amountKobo, 25000, "Flutterwave's own record says ₦250.00");
});
