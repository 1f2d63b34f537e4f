// /docs/providers shows these commands; here they run, as printed, against a real database through the CLI process.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import {
  keysCreateCommand,
  LOCAL_DOUBLE,
  LOCAL_OWO,
  LOCAL_SHOP,
  localWalk,
  providerAddAnswer,
  providerAddCommands,
} from "../../app/docs/provider-examples";
import { eventually } from "../testing/eventually";
import { tempDataDir, TEST_ENV } from "../testing/harness";
import { databaseIn, runCli, spawnDouble, spawnOwo, type DoubleProcess } from "../testing/processes";
import { startReceiver } from "../testing/receiver";

const dataDir = tempDataDir();
after(() => rmSync(dataDir, { recursive: true, force: true }));

/** Where the page's credentials are real: each provider's double, started with them (Owo tries credentials on connect). */
const flagsOf = (args: readonly string[]) =>
  Object.fromEntries(
    ["secret-key", "secret-hash", "public-key"].flatMap((f) =>
      args.includes(`--${f}`) ? [[f, args[args.indexOf(`--${f}`) + 1] ?? ""]] : [],
    ),
  );

test("the page's provider add and keys create commands work as shown and print the shapes it shows", async () => {
  const doubles: DoubleProcess[] = [];
  after(() => Promise.all(doubles.map((d) => d.stop())));
  const made = runCli(
    ["merchant", "create", "--name", "Docs Store", "--email", "docs@store.ng", "--password", "a long password", "--json"],
    dataDir,
  );
  const { merchantId } = JSON.parse(made.stdout.trim().split("\n").pop() ?? "{}") as { merchantId: string };
  const withMerchant = (args: readonly string[]) => args.map((a) => (a === "<merchantId>" ? merchantId : a));
  for (const [provider, args] of Object.entries(providerAddCommands)) {
    const double = await spawnDouble(provider, flagsOf(args));
    doubles.push(double);
    const r = runCli([...withMerchant(args), "--base-url", double.url], dataDir);
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

/** A step's command through the shell, as the reader runs it, with this test's addresses and the values earlier steps printed. */
function shellStep(command: string, values: Record<string, string>, env: Record<string, string>) {
  let line: string = command;
  for (const [from, to] of Object.entries(values)) line = line.split(from).join(to);
  const r = spawnSync("bash", ["-c", line], { env: { ...process.env, ...TEST_ENV, ...env }, encoding: "utf8" });
  assert.equal(r.status, 0, `${line}\n${r.stderr}`);
  return r.stdout;
}
/** The JSON a command printed last (npm prints its own lines first). */
const lastJson = (out: string) =>
  JSON.parse(
    out
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .pop() ?? "{}",
  ) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers are inspected field by field

test("the page's walk from the demo to a live payment on Paystack's double runs as printed, callback included", async () => {
  const databaseUrl = databaseIn(dataDir);
  const walkEnv = Object.fromEntries([...localWalk.start.matchAll(/(OWO_\w+)=(\S+)/g)].map((m) => [m[1] ?? "", m[2] ?? ""]));
  assert.deepEqual(Object.keys(walkEnv), ["OWO_ALLOW_PROVIDER_BASE_URL", "OWO_ALLOW_PRIVATE_CALLBACKS"]);
  // The tests' defaults allow both; the walk's own line must be what turns them on.
  const off: Record<string, string> = { OWO_ALLOW_PROVIDER_BASE_URL: "0", OWO_ALLOW_PRIVATE_CALLBACKS: "0" };
  const owo = await spawnOwo(databaseUrl, { ...off, OWO_WORKER: "on", ...walkEnv });
  const shop = await startReceiver();
  const double = spawn("bash", ["-c", localWalk.double.replace("--port 4010", "--port 0")], {
    detached: true,
    stdio: ["ignore", "pipe", "inherit"],
  });
  after(async () => {
    process.kill(-(double.pid ?? 0), "SIGTERM");
    owo.child.kill("SIGTERM");
    await owo.exited;
    await shop.stop();
  });
  const doubleUrl = await new Promise<string>((resolve) => {
    let out = "";
    double.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(lastJson(line).url as string);
    });
  });
  const values: Record<string, string> = { [LOCAL_OWO]: owo.url, [LOCAL_DOUBLE]: doubleUrl, [LOCAL_SHOP]: shop.url("") };
  const env = { DATABASE_URL: databaseUrl };

  const made = runCli(
    ["merchant", "create", "--name", "Walk Store", "--email", "walk@store.ng", "--password", "a long password", "--json"],
    dataDir,
  );
  const merchantId = lastJson(made.stdout).merchantId as string;
  assert.match(shellStep(localWalk.merchantList, values, env), new RegExp(`${merchantId}  Walk Store  walk@store\\.ng`));
  values["<merchantId>"] = merchantId;
  values["<noticeUrl>"] = lastJson(shellStep(localWalk.connect, values, env)).noticeUrl;
  shellStep(localWalk.webhook, values, env);
  const keys = lastJson(shellStep(localWalk.keys, values, env));
  values["<secretKey>"] = keys.secretKey;
  values["<publicKey>"] = keys.publicKey;
  values["<token>"] = lastJson(shellStep(localWalk.token, values, env)).data.EncryptedSecKey.encryptedKey;
  const initiated = lastJson(shellStep(localWalk.initiate, values, env));
  assert.equal(initiated.status, "SUCCESS", JSON.stringify(initiated));
  const issued = initiated.data.payments;
  assert.match(issued.ussdDailCode, /^\*737\*/);
  values["<providerreference>"] = issued.providerreference;
  shellStep(localWalk.pay, values, env);
  await eventually(
    "verify to answer SUCCESSFUL",
    () => lastJson(shellStep(localWalk.verify, values, env)).data.payments.status === "SUCCESSFUL",
  );
  await eventually("the callback on this machine", () =>
    shop.received.find((r) => r.path === "/owo/callback" && r.body.includes("SUCCESSFUL")),
  );
});
