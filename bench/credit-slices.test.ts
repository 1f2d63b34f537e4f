import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { creditSlices } from "./credit-slices";
import { pairReadings } from "./posting-cost";

type Paid = { reference: string; token: string; start: number; end: number };

/** A server that answers the sandbox bank's pay request as Owo does (200), recording what was paid and when. */
async function bank(paid: Paid[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const start = performance.now();
    const reference = decodeURIComponent(/\/api\/v2\/sandbox\/payments\/([^/]+)\/simulate$/.exec(req.url ?? "")?.[1] ?? "");
    req.resume();
    req.on("end", () =>
      setTimeout(() => {
        paid.push({ reference, token: req.headers.authorization ?? "", start, end: performance.now() });
        res.writeHead(reference ? 200 : 404, { "content-type": "application/json" }).end('{"status":"SUCCESS"}');
      }, 1),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test("credit slices: both servers take turns on, off, off, on, each slice drained before the next, every payment paid once", async () => {
  const paid: Paid[] = [];
  const [on, off] = [await bank(paid), await bank(paid)];
  let issued = 0;
  const taken: number[] = [];
  try {
    const run = await creditSlices(
      { on: { posting: true, url: on.url, token: "on" }, off: { posting: false, url: off.url, token: "off" } },
      [true, false, false, true],
      {
        sliceSeconds: 0.01,
        connections: 4,
        parties: {},
        take: async (n) => {
          taken.push(n);
          return Array.from({ length: n }, () => `ref-${issued++}`);
        },
        scenario: (posting) => (posting ? "with" : "without"),
      },
    );
    // Warm-up: 2 a connection on each side; then every slice as large as the warm-up at least.
    const [warmOn, warmOff, ...slices] = taken;
    assert.deepEqual([warmOn, warmOff], [8, 8]);
    assert.equal(slices.length, 4);
    assert.ok(slices.every((n) => n === slices[0] && n >= 8));
    // Each reference paid exactly once, at the server its slice was for, slice after slice.
    assert.equal(new Set(paid.map((p) => p.reference)).size, issued);
    assert.equal(paid.length, issued);
    const bySlice: Paid[][] = [];
    let first = 0;
    for (const n of taken) {
      bySlice.push(paid.filter((p) => Number(p.reference.slice(4)) >= first && Number(p.reference.slice(4)) < first + n));
      first += n;
    }
    assert.deepEqual(
      bySlice.map((s) => [...new Set(s.map((p) => p.token))].join()),
      ["Bearer on", "Bearer off", "Bearer on", "Bearer off", "Bearer off", "Bearer on"],
    );
    for (let k = 1; k < bySlice.length; k++)
      assert.ok(
        Math.max(...(bySlice[k - 1] ?? []).map((p) => p.end)) <= Math.min(...(bySlice[k] ?? []).map((p) => p.start)),
        `slice ${k} began before slice ${k - 1} was drained`,
      );
    // The measured slices only, as legs the verdict reads: two pairs, nothing failed.
    assert.deepEqual(
      run.legs.map((l) => l.posting),
      [true, false, false, true],
    );
    assert.equal(pairReadings(run.legs).length, 2);
    assert.deepEqual(
      run.results.get(true)?.map((r) => [r.scenario, r.requests, r.errors]),
      [
        ["with", slices[0], 0],
        ["with", slices[0], 0],
      ],
    );
  } finally {
    on.server.close();
    off.server.close();
  }
});
