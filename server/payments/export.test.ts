// CSV export on a real database: the filtered list in batches, every row once, safe cells, the connection free between batches.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { newReference, trpcInput, transferBody, ussdBody } from "../testing/initiation";
import { initiatePayment } from "./initiate";
import { parseInitiateRequest } from "./initiate-schema";
import { exportPayments, csvField } from "./export";
import { listPayments } from "./history";
import { countPayments } from "./filters";

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Export Store");
});
after(() => owo.stop());

async function payment(at: number, body: Record<string, unknown>): Promise<string> {
  const request = parseInitiateRequest(trpcInput(body), { publicKey: false });
  await initiatePayment(request, { merchantId: m.merchantId, mode: "test", source: "rest", now: at });
  return request.paymentReference;
}

/** RFC 4180 records → arrays of fields (quoted fields may hold commas and doubled quotes). */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter((line) => line.length > 0)
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .map((f) => f[1] ?? "")
        .slice(0, -1)
        .map((f) => (f.startsWith('"') ? f.slice(1, -1).replaceAll('""', '"') : f)),
    );
}

test("streams the filtered list newest first in batches, each row once, with the header first", async () => {
  const start = Date.now() - 3_600_000;
  for (let i = 0; i < 23; i++)
    await payment(
      start + Math.floor(i / 2) * 1000,
      (i % 3 === 0 ? ussdBody : transferBody)("", { paymentReference: newReference("csv"), amount: `${1000 + i}` }),
    );

  const transfers = await exportPayments({ merchantId: m.merchantId, mode: "test" }, { channel: "TRANSFER" }, 5);
  assert.equal(transfers.total, 15);
  const chunks = await collect(transfers.chunks);
  assert.equal(chunks.length, 1 + 3, "the header, then batches of 5");
  const rows = parseCsv(chunks.join(""));
  assert.deepEqual(rows[0]?.slice(0, 9), [
    "Created (UTC)",
    "Payment reference",
    "Linking reference",
    "Channel",
    "Status",
    "Amount (NGN)",
    "Amount paid (NGN)",
    "Amount to refund (NGN)",
    "Amount refunded (NGN)",
  ]);
  const expected = (await listPayments({ merchantId: m.merchantId, mode: "test" }, { channel: "TRANSFER" }, { limit: 200 })).items.map(
    (p) => p.paymentReference,
  );
  assert.deepEqual(
    rows.slice(1).map((r) => r[1]),
    expected,
  );
  assert.ok(rows.slice(1).every((r) => r[3] === "TRANSFER" && r[4] === "PENDING" && /^\d+\.\d\d$/.test(r[5] ?? "")));
  assert.ok(rows.slice(1).every((r) => r.length === rows[0]?.length));

  const none = await exportPayments({ merchantId: m.merchantId, mode: "test" }, { status: "FAILED" });
  assert.equal(none.total, 0);
  assert.equal((await collect(none.chunks)).join("").split("\r\n").filter(Boolean).length, 1, "only the header");
});

test("between batches the one connection serves others, and rows written meanwhile do not disturb the walk", async () => {
  const before = await countPayments({ merchantId: m.merchantId, mode: "test" }, {});
  const running = await exportPayments({ merchantId: m.merchantId, mode: "test" }, {}, 4);
  const first = await running.chunks.next();
  assert.equal(first.done, false);
  let rows = 0;
  for (let step = await running.chunks.next(); !step.done; step = await running.chunks.next()) {
    rows += step.value.split("\r\n").filter(Boolean).length;
    // A request landing mid-export: a write and a read on the same connection.
    await payment(Date.now(), ussdBody("", { paymentReference: newReference("mid") }));
    assert.ok((await countPayments({ merchantId: m.merchantId, mode: "test" }, {})) > before);
  }
  assert.equal(rows, before, "newer payments sort before the walk's position, so each old row comes once");
});

test("cells are quoted when needed, and a customer-typed formula is never run by a spreadsheet", async () => {
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('Obi, "Ada"'), '"Obi, ""Ada"""');
  assert.equal(csvField("=1+2"), "'=1+2");
  assert.equal(csvField("@SUM(A1)"), "'@SUM(A1)");
  assert.equal(csvField("two\r\nlines"), "two lines");

  const ref = await payment(
    Date.now() + 10_000,
    ussdBody("", { paymentReference: newReference("formula"), fullName: '=HYPERLINK("http://evil.example","Ada")' }),
  );
  const text = (await collect((await exportPayments({ merchantId: m.merchantId, mode: "test" }, { search: ref })).chunks)).join("");
  const [, row] = parseCsv(text);
  assert.equal(row?.[1], ref);
  assert.equal(row?.[9], `'=HYPERLINK("http://evil.example","Ada")`);
});
