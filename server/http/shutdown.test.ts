// SIGTERM: stop accepting, finish the request in flight, close the database, exit 0.
import assert from "node:assert/strict";
import { request } from "node:http";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { tempDataDir, tokenFor } from "../testing/harness";
import { transferBody } from "../testing/initiation";
import { cliMerchant, databaseIn, spawnOwo } from "../testing/processes";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("a request in flight when SIGTERM arrives still gets its answer, then the process exits 0", async () => {
  const m = cliMerchant(dataDir, "Shutdown Ltd", "s@example.com");
  const owo = await spawnOwo(databaseIn(dataDir));
  const token = await tokenFor(owo, m);
  const body = JSON.stringify(transferBody(m.publicKey, { paymentReference: "in-flight-1" }));
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${owo.url}/api/v2/payments/initiates`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        authorization: `Bearer ${token}`,
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    // Half the body now, SIGTERM, the rest later: the request is genuinely in flight during shutdown.
    req.write(body.slice(0, 100));
    setTimeout(() => {
      owo.child.kill("SIGTERM");
      setTimeout(() => req.end(body.slice(100)), 400);
    }, 200);
  });
  const res = await answer;
  assert.equal(res.status, 200, res.text);
  assert.equal(JSON.parse(res.text).data.payments.paymentReference, "in-flight-1");
  assert.equal(await owo.exited, 0);
  assert.match(owo.output(), /shutting down/);
  assert.match(owo.output(), /"msg":"stopped"/);
  await assert.rejects(fetch(`${owo.url}/api/health`), "no longer accepting");
});
