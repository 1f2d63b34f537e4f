// A real Prometheus (Debian's /usr/bin/prometheus, which .ci/run installs) started by a test in a temp folder on a
// loopback port, scraping the targets it is given; queried over its own HTTP API as a Grafana panel would.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./harness";

export type Sample = { metric: Record<string, string>; value: number };
export type Prometheus = { url: string; query: (promql: string) => Promise<Sample[]>; stop: () => Promise<void> };

export const PROMETHEUS_BIN = process.env.OWO_PROMETHEUS_BIN ?? "/usr/bin/prometheus";

/** `targets`: host:port of each Owo; `authorization`: the bearer token the scrape sends, when /metrics needs one. */
export async function startPrometheus(targets: string[], authorization?: string): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), "owo-prometheus-"));
  const port = await freePort();
  const auth = authorization ? `    authorization:\n      credentials: ${JSON.stringify(authorization)}\n` : "";
  writeFileSync(
    join(dir, "prometheus.yml"),
    `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: owo\n    metrics_path: /metrics\n${auth}    static_configs:\n      - targets: ${JSON.stringify(targets)}\n`,
  );
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/-/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || i > 300) {
      await stop();
      throw new Error(`prometheus did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const query = async (promql: string): Promise<Sample[]> => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== "success") throw new Error(`prometheus refused ${promql}: ${body.error}`);
    return (body.data?.result ?? []).map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  return { url, query, stop };
}
