// /docs/providers shows these commands; here they run, as printed, against a real database through the CLI process.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { keysCreateCommand, providerAddAnswer, providerAddCommands } from "../../app/docs/provider-examples";
import { tempDataDir } from "../testing/harness";
import { runCli } from "../testing/processes";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("the page's provider add and keys create commands work as shown and print the shapes it shows", () => {
  const made = runCli(
    ["merchant", "create", "--name", "Docs Store", "--email", "docs@store.ng", "--password", "a long password", "--json"],
    dataDir,
  );
  const { merchantId } = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { merchantId: string };
  const withMerchant = (args: readonly string[]) => args.map((a) => (a === "<merchantId>" ? merchantId : a));
  for (const [provider, args] of Object.entries(providerAddCommands)) {
    const r = runCli(withMerchant(args), dataDir);
    assert.equal(r.status, 0, `${provider}: ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim()) as Record<string, string>;
    assert.deepEqual(Object.keys(out), Object.keys(providerAddAnswer));
    assert.equal(out.provider, provider);
    assert.match(out.noticeUrl ?? "", new RegExp(`/api/v2/providers/${out.providerId}/notices$`));
  }
  const keys = runCli(withMerchant(keysCreateCommand), dataDir);
  assert.equal(keys.status, 0, keys.stderr);
  assert.deepEqual(Object.keys(JSON.parse(keys.stdout.trim())), ["publicKey", "secretKey", "webhookSecret"]);
});
