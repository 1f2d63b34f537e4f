// deploy/ as an operator installs it: the systemd units pass `systemd-analyze verify` (Debian's systemd, which .ci/run
// installs) and start this repository's entry points; the example settings file is valid settings, every name in it
// documented in API.md; the Caddyfile proxies to the port those settings choose and hides /metrics.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseSettings } from "./settings";

const UNITS = ["owo.service", "owo-worker.service"];
const unit = (name: string) => readFileSync(join("deploy/systemd", name), "utf8");

function verify(file: string) {
  return spawnSync("systemd-analyze", ["verify", "--man=no", file], { encoding: "utf8" });
}

test("the app and worker units pass systemd-analyze verify, and a broken unit does not", () => {
  for (const name of UNITS) {
    const checked = verify(join("deploy/systemd", name));
    assert.equal(checked.status, 0, `${name}: ${checked.stderr}`);
    assert.equal(checked.stderr.trim(), "", `${name} verifies without a warning`);
  }
  const dir = mkdtempSync(join(tmpdir(), "owo-units-"));
  try {
    const broken = join(dir, "owo.service");
    copyFileSync("deploy/systemd/owo.service", broken);
    spawnSync("sed", ["-i", "s#^ExecStart=/usr/bin/node#ExecStart=node-somewhere#", broken]);
    assert.notEqual(verify(broken).status, 0, "a relative ExecStart is refused");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("each unit starts an entry point of this repository as npm does, with the production settings, and stops by SIGTERM", () => {
  const entries: Record<string, string> = { "owo.service": "server/main.ts", "owo-worker.service": "server/webhooks/worker-main.ts" };
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  // The heap flags the bench measured Owo with (bench/README.md), the same under systemd as under npm start and npm run worker.
  const npmRuns: Record<string, string> = { "owo.service": scripts.start ?? "", "owo-worker.service": scripts.worker ?? "" };
  for (const name of UNITS) {
    const text = unit(name);
    const exec = /^ExecStart=(\S+)((?: --\S+)*) --import tsx (\S+)$/m.exec(text);
    assert.ok(exec, `${name} has an ExecStart`);
    assert.equal(exec[3], entries[name]);
    assert.ok(existsSync(exec[3] ?? ""), `${exec[3]} exists`);
    assert.equal(npmRuns[name], `NODE_ENV=production node${exec[2]} --import tsx ${exec[3]}`, `${name} runs node as npm does`);
    assert.match(text, /^Environment=NODE_ENV=production$/m);
    assert.match(text, /^EnvironmentFile=\/etc\/owo\/owo\.env$/m);
    assert.match(text, /^KillSignal=SIGTERM$/m);
    // Owo's own hard stop is 20 s: systemd must wait longer than that before it kills.
    assert.ok(Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1]) > 20);
  }
});

test("owo.env.example is valid settings, and every name in it is a setting API.md documents", () => {
  const text = readFileSync("deploy/owo.env.example", "utf8");
  const documented = readFileSync("docs/API.md", "utf8");
  const active: Record<string, string> = {};
  for (const [, comment, name, value] of text.matchAll(/^(# ?)?([A-Z][A-Z0-9_]+)=(.*)$/gm)) {
    assert.ok(documented.includes(`\`${name}\``), `${name} is in API.md's settings`);
    if (!comment) active[name ?? ""] = value ?? "";
  }
  const dataDir = mkdtempSync(join(tmpdir(), "owo-env-"));
  try {
    const s = parseSettings({ ...active, DATABASE_URL: join(dataDir, "owo.db") });
    assert.equal(s.trustProxy, true, "behind the proxy the client's address is the forwarded one");
    assert.equal(s.publicUrl, "https://pay.example.ng");
    const caddy = readFileSync("deploy/Caddyfile", "utf8");
    assert.match(caddy, new RegExp(`reverse_proxy 127\\.0\\.0\\.1:${s.port} `));
    assert.match(caddy, /^\s*pay\.example\.ng \{/m);
    assert.match(caddy, /@metrics path \/metrics\n\s*respond @metrics 404/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
