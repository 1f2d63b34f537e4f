// GET /api/exports/payments over real HTTP: the CSV a signed-in person downloads, streamed from a worker thread of its own,
// and the refusals in API.md's envelope.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { newReference, trpcInput, transferBody, ussdBody } from "../testing/initiation";
import { sessionCookie } from "../testing/sessions";
import { eventually } from "../testing/eventually";
import { initiatePayment } from "../payments/initiate";
import { parseInitiateRequest } from "../payments/initiate-schema";
import { CSV_HEADER } from "../payments/export";
import { exportsRunning } from "../payments/export-apart";

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Export Door Store");
});
after(() => owo.stop());

async function payment(body: Record<string, unknown>): Promise<string> {
  const request = parseInitiateRequest(trpcInput(body), { publicKey: false });
  await initiatePayment(request, { merchantId: m.merchantId, mode: "test", source: "rest", now: Date.now() });
  return request.paymentReference;
}

test("a signed-in person downloads the filtered payments as CSV: named file, total announced, cells quoted and defused", async () => {
  const refs: string[] = [];
  for (let i = 0; i < 2500; i++) refs.push(await payment(transferBody("", { paymentReference: newReference("door"), amount: "1500" })));
  const odd = await payment(ussdBody("", { paymentReference: newReference("odd"), fullName: '=HYPERLINK("x"), "Ada"' }));
  const res = await fetch(`${owo.url}/api/exports/payments?channel=TRANSFER`, { headers: { cookie: await sessionCookie(m.userId) } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/csv; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="owo-payments-test-\d{8}-\d{4}\.csv"$/);
  assert.equal(res.headers.get("x-total-count"), "2500");
  const text = await res.text();
  assert.ok(text.startsWith(CSV_HEADER));
  const lines = text.split("\r\n").slice(1, -1);
  assert.equal(lines.length, 2500, "every TRANSFER payment once, over three batches");
  assert.equal(new Set(lines.map((l) => l.split(",")[1])).size, 2500);
  assert.ok(lines.every((l) => l.split(",")[3] === "TRANSFER" && l.split(",")[5] === "1500.00"));
  assert.ok(text.endsWith("\r\n"));

  const one = await fetch(`${owo.url}/api/exports/payments?search=${odd}`, { headers: { cookie: await sessionCookie(m.userId) } });
  const [, row] = (await one.text()).split("\r\n");
  assert.match(row ?? "", new RegExp(`^[^,]+,${odd},.*,"'=HYPERLINK\\(""x""\\), ""Ada""",`));
});

test("signed out, a bad filter and another method are refused in the envelope, naming the field", async () => {
  const signedOut = await fetch(`${owo.url}/api/exports/payments`);
  assert.equal(signedOut.status, 401);
  assert.deepEqual(((await signedOut.json()) as { data: { code: string } }).data.code, "S1");

  const bad = await fetch(`${owo.url}/api/exports/payments?minAmount=abc`, { headers: { cookie: await sessionCookie(m.userId) } });
  assert.equal(bad.status, 400);
  const body = (await bad.json()) as { status: string; data: { errors: { field: string }[] } };
  assert.equal(body.status, "ERROR");
  assert.ok(body.data.errors.some((e) => e.field === "minAmount"));

  const posted = await fetch(`${owo.url}/api/exports/payments`, { method: "POST", headers: { cookie: await sessionCookie(m.userId) } });
  assert.equal(posted.status, 405);
});

test("a download cancelled midway ends its export thread", async () => {
  const res = await fetch(`${owo.url}/api/exports/payments`, { headers: { cookie: await sessionCookie(m.userId) } });
  const reader = res.body?.getReader();
  assert.ok(reader);
  await reader.read();
  assert.equal(exportsRunning(), 1, "the export runs in a thread of its own while it streams");
  await reader.cancel();
  await eventually("the export thread to end once the reader went away", () => exportsRunning() === 0);
});
