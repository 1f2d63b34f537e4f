// Integration tests start the real HTTP front (REST, tRPC) on a temp SQLite file and talk to it over loopback.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FrontTimeouts, PageHandler } from "../http/front";

export type Owo = { url: string; dataDir: string; databaseUrl: string; stop: () => Promise<void> };

export const TEST_ENV: Record<string, string> = {
  OWO_RATE_LIMIT_RPS: "0",
  OWO_IP_RATE_LIMIT_PER_MIN: "0",
  OWO_SWEEP_INTERVAL_SECONDS: "0",
  // Tests move the clock across Lagos midnights: the bank settles only when a test asks it to.
  OWO_SANDBOX_SETTLEMENT: "off",
  OWO_WORKER: "off",
  OWO_ALLOW_PRIVATE_CALLBACKS: "1",
  LOG_LEVEL: process.env.OWO_TEST_LOG_LEVEL ?? "silent",
};

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), "owo-test-"));
}

/**
 * What a test may change about the front: `pages` stands in for Next's handler (the front's own decisions are what is
 * under test there; real pages are tested in Playwright), `host` to be reached from a non-loopback address.
 */
export type FrontOptions = { pages?: PageHandler; host?: string; timeouts?: FrontTimeouts };

/**
 * The test's own database: a SQLite file in its data folder, or, when the run is on PostgreSQL (server/testing/run.mjs
 * sets OWO_TEST_POSTGRES_URL to its throwaway server), a fresh database there, dropped afterwards.
 */
export async function testDatabase(dataDir: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.OWO_TEST_POSTGRES_URL;
  if (!server) return { url: join(dataDir, "owo.db"), drop: async () => undefined };
  const { onPostgres } = await import("../../db/throwaway-postgres");
  const name = `owo_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (statement: string) => {
    await onPostgres(server, (client) => client.query(statement));
  };
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** The server once it listens on `port`; undefined when the port was taken and the caller may try another. */
async function listenOn(server: Server, port: number, host: string, mayRetry: boolean): Promise<Server | undefined> {
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => (err.code === "EADDRINUSE" && mayRetry ? resolve(undefined) : reject(err)));
    server.listen(port, host, () => resolve(server));
  });
}

/** One server per test file (node --test runs each file in its own process, so settings stay per file). */
export async function startOwo(env: Record<string, string> = {}, front: FrontOptions = {}): Promise<Owo> {
  const dataDir = tempDataDir();
  const database = await testDatabase(dataDir);
  // The server is loaded when a test starts one, not with the kit: files that only spawn Owo processes or want a temp
  // folder (cli, clock, deploy-files) import this file too, and need not load all of Owo.
  const { createFront } = await import("../http/front");
  let server: Server | undefined;
  let port = 0;
  // A probed port is let go before the front binds it, and another test file running at the same time can take it in
  // between: then the front tries another, before anything has read settings beyond the front's own.
  for (let attempt = 1; !server; attempt++) {
    port = await freePort();
    Object.assign(
      process.env,
      TEST_ENV,
      { DATABASE_URL: database.url, OWO_DATA_DIR: dataDir, PORT: String(port), OWO_PUBLIC_URL: `http://127.0.0.1:${port}` },
      env,
    );
    delete (globalThis as { __owoSettings?: unknown }).__owoSettings;
    const candidate = createFront(front.pages ?? null, front.timeouts);
    server = await listenOn(candidate, port, front.host ?? "127.0.0.1", attempt < 5);
  }
  const listening = server;
  const { migrateDatabase, closeDatabase } = await import("../../db/client");
  const { startBackground } = await import("../background");
  await migrateDatabase();
  const background = await startBackground();
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    databaseUrl: database.url,
    stop: async () => {
      await background.stop();
      listening.closeAllConnections();
      await new Promise((r) => listening.close(r));
      await closeDatabase();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestMerchant = {
  merchantId: string;
  userId: string;
  publicKey: string;
  secretKey: string;
  webhookSecret: string;
  email: string;
  password: string;
  name: string;
};

let merchantCount = 0;
export async function createTestMerchant(name = `Test Store ${++merchantCount}`): Promise<TestMerchant> {
  const { createMerchant } = await import("../merchants/create-merchant");
  const email = `owner${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = "correct horse battery";
  const created = await createMerchant({ name, email, password, emailVerified: true });
  return { ...created, email, password, name };
}

export type Answer = { status: number; headers: Headers; text: string; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test answers are inspected field by field

export async function call(
  owo: Pick<Owo, "url">,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(opts.body !== undefined || opts.raw !== undefined ? { "content-type": "application/json" } : {}),
    ...opts.headers,
  };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(owo.url + path, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export async function tokenFor(owo: Pick<Owo, "url">, m: { secretKey: string; publicKey: string }): Promise<string> {
  const res = await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${m.secretKey}.${m.publicKey}` } });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.text}`);
  return res.json.data.EncryptedSecKey.encryptedKey as string;
}
