// The Paystack connector against the Paystack double when things go wrong: each API fault the double injects surfaces
// as ProviderUnavailable, and each webhook fault (dropped, duplicated, reordered, lying about the amount) still leaves
// verify's record as the truth.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { issueRequest, providerDouble } from "../../testing/provider-double";
import { ProviderUnavailable } from "../connector";
import { paystack } from "./connector";

const ps = providerDouble(paystack, { secretKey: "sk_test_paystack_faults" }, { accountId: "prv_test" });
// Generous: a loaded machine must not turn an answer into a timeout (hangs get their own 300 ms signal below).
const quick = () => AbortSignal.timeout(15_000);

test("faults surface as ProviderUnavailable: 5xx, a hang past the caller's timeout, a refused connection", async () => {
  await ps.control("POST", "/faults", { kind: "5xx", path: "/charge" });
  await assert.rejects(
    paystack.issue(ps.account, issueRequest("TRANSFER"), quick()),
    (e: unknown) => e instanceof ProviderUnavailable && /answered 500/.test(e.message),
  );
  await ps.control("POST", "/faults", { kind: "hang", path: "/transaction/verify" });
  const started = Date.now();
  await assert.rejects(
    paystack.query(ps.account, "anything", AbortSignal.timeout(300)),
    (e: unknown) => e instanceof ProviderUnavailable && /no answer in time/.test(e.message),
  );
  assert.ok(Date.now() - started < 2000);
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  await assert.rejects(
    paystack.issue({ ...ps.account, baseUrl: `http://127.0.0.1:${port}` }, issueRequest("USSD"), quick()),
    (e: unknown) => e instanceof ProviderUnavailable && /ECONNREFUSED/.test(e.message),
  );
  const ok = await paystack.issue(ps.account, issueRequest("USSD"), quick()); // the faults were used up
  assert.equal(ok.channel, "USSD");
});

test("webhook faults: dropped (verify still tells), duplicated (same event id twice), reordered, amount disagreeing with the record", async () => {
  const pay = async () => {
    const req = issueRequest("USSD", 120000);
    await paystack.issue(ps.account, req, quick());
    await ps.control("POST", `/transactions/${req.reference}/pay`);
    return req.reference;
  };
  let from = ps.received.length;
  await ps.control("POST", "/faults", { kind: "drop-webhook" });
  const dropped = await pay();
  await ps.webhooksAfter(from, 0);
  assert.equal((await paystack.query(ps.account, dropped, quick())).state, "paid");

  from = ps.received.length;
  await ps.control("POST", "/faults", { kind: "duplicate-webhook" });
  await pay();
  const twice = await ps.webhooksAfter(from, 2);
  assert.equal(twice.readings[0]?.eventId, twice.readings[1]?.eventId);

  from = ps.received.length;
  await ps.control("POST", "/faults", { kind: "reorder-webhooks", times: 2 });
  const first = await pay();
  const second = await pay();
  const reordered = await ps.webhooksAfter(from, 2);
  assert.deepEqual(
    reordered.readings.map((r) => (r.kind === "payment" ? r.reference : "")),
    [second, first],
  );

  from = ps.received.length;
  await ps.control("POST", "/faults", { kind: "amount-mismatch" });
  const lying = await pay();
  const mismatch = await ps.webhooksAfter(from, 1);
  assert.equal(mismatch.readings[0]?.kind === "payment" && mismatch.readings[0].amountKobo, 240000);
  assert.equal((await paystack.query(ps.account, lying, quick())).amountKobo, 120000);
});
