// Request lines are logged; the invite and reset tokens that some URLs carry never reach the log.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { tempDataDir } from "../testing/harness";
import { databaseIn, spawnOwo } from "../testing/processes";
import { redactedUrl } from "./redacted-url";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("the logged URL of an invite or reset link carries no token", async () => {
  const owo = await spawnOwo(databaseIn(dataDir));
  const invite = "inv_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi";
  const reset = "rst_c2VjcmV0LXJlc2V0LXRva2VuLTEyMzQ1";
  await fetch(`${owo.url}/signup?invite=${invite}&utm=1`);
  await fetch(`${owo.url}/reset-password?token=${reset}`);
  await fetch(`${owo.url}/reset-password/${reset}`);
  await fetch(`${owo.url}/api/health`);
  owo.child.kill("SIGTERM");
  await owo.exited;
  const lines = owo
    .output()
    .split("\n")
    .filter((l) => l.includes('"msg":"request"'));
  assert.ok(
    lines.some((l) => l.includes("/signup?invite=[redacted]&utm=1")),
    owo.output(),
  );
  assert.ok(lines.some((l) => l.includes("/reset-password/rst_[redacted]")));
  assert.doesNotMatch(owo.output(), /Zm9vYmFy|c2VjcmV0/);
});

test("only secrets are taken out of a URL", () => {
  assert.equal(redactedUrl("/pay/shop?status=SUCCESSFUL&paymentReference=ref-1"), "/pay/shop?status=SUCCESSFUL&paymentReference=ref-1");
  assert.equal(redactedUrl("/pay/shop/done?paymentReference=inv_2024_001"), "/pay/shop/done?paymentReference=inv_2024_001");
  assert.equal(redactedUrl("/signup?INVITE=abc"), "/signup?INVITE=[redacted]");
  assert.equal(redactedUrl("/x?next=%2Fsignup%3Finvite%3Dinv_Zm9vYmFyYmF6cXV4MTIzNDU2"), "/x?next=%2Fsignup%3Finvite%3Dinv_[redacted]");
});
