// Settings from the environment (API.md "Settings"), validated once; generated secrets live in the data folder.
import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { PRIVATE_FILE, privateFolder } from "../db/private-files";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { databaseTargetOf, DEFAULT_DATABASE_URL, describeDatabase, type DatabaseTarget, UnusableDatabaseUrl } from "../db/location";

const seconds = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const flag = z
  .enum(["0", "1", "true", "false", "on", "off", ""])
  .default("0")
  .transform((v) => ["1", "true", "on"].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  OWO_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  OWO_TRUST_PROXY: flag,
  DATABASE_URL: z.string().min(1).default(DEFAULT_DATABASE_URL),
  OWO_DATA_DIR: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  OWO_MASTER_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional(),
  OWO_TOKEN_TTL_SECONDS: seconds(86400, 1),
  OWO_USSD_TTL_SECONDS: seconds(600, 1),
  OWO_TRANSFER_TTL_SECONDS: seconds(1800, 1),
  OWO_SWEEP_INTERVAL_SECONDS: z.coerce.number().min(0).default(15),
  OWO_RATE_LIMIT_RPS: z.coerce.number().min(0).default(50),
  OWO_RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(100),
  OWO_IP_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(60),
  OWO_NOTICE_RATE_LIMIT_RPS: z.coerce.number().min(0).default(10),
  OWO_ALLOW_PRIVATE_CALLBACKS: flag,
  OWO_WEBHOOK_BACKOFF_SCALE: z.coerce.number().positive().default(1),
  OWO_WORKER_LEASE_SECONDS: seconds(60, 1),
  OWO_WORKER: z.enum(["on", "off"]).default("on"),
  OWO_SANDBOX_BANK_SECRET: z.string().min(16).optional(),
  OWO_SMTP_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  ),
  OWO_MAIL_FROM: z.string().trim().min(3).max(200).default("Owo <no-reply@localhost>"),
  OWO_REVOCATION_SECONDS: z.coerce.number().min(0).default(2),
  OWO_SESSION_MAX_SECONDS: seconds(43200, 60),
  OWO_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(256),
  OWO_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(5000),
  OWO_PROVIDER_REST_SECONDS: seconds(60),
  OWO_REQUERY_BACKOFF_SCALE: z.coerce.number().positive().default(1),
  OWO_ALLOW_PROVIDER_BASE_URL: flag,
  OWO_SETTLEMENT_POLL_MINUTES: z.coerce.number().int().min(1).default(60),
  OWO_SETTLEMENT_GRACE_DAYS: z.coerce.number().int().min(0).default(3),
  OWO_SANDBOX_SETTLEMENT: z.enum(["on", "off"]).default("on"),
  OWO_SIGNUP: z.enum(["open", "invite", "closed"], { error: "must be open, invite or closed" }).default("open"),
  OWO_METRICS_TOKEN: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(16, "must be at least 16 characters").optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL (the OTLP/HTTP receiver)" }).optional(),
  ),
});

export type Settings = {
  port: number;
  publicUrl: string;
  trustProxy: boolean;
  /** The database, fit for a log line (no password). */
  database: string;
  dataDir: string;
  authSecret: string;
  masterKey: Buffer;
  tokenTtlSeconds: number;
  ussdTtlSeconds: number;
  transferTtlSeconds: number;
  sweepIntervalSeconds: number;
  rateLimitRps: number;
  rateLimitBurst: number;
  ipRateLimitPerMin: number;
  /** Provider notices a second per provider account and per client IP (the public notice doors); 0: no limit. */
  noticeRateLimitRps: number;
  allowPrivateCallbacks: boolean;
  webhookBackoffScale: number;
  workerLeaseSeconds: number;
  worker: boolean;
  sandboxBankSecret: string;
  /** null: no SMTP, mail stays in the outbox (dashboard "Mail sent by this Owo", `owo mail list`). */
  smtpUrl: string | null;
  mailFrom: string;
  revocationSeconds: number;
  sessionMaxSeconds: number;
  maxConnectionsPerIp: number;
  providerTimeoutMs: number;
  providerRestSeconds: number;
  requeryBackoffScale: number;
  allowProviderBaseUrl: boolean;
  /** How often each live provider's settlements are read. */
  settlementPollMinutes: number;
  /** Working days a credit may wait for a settlement before it is a `not_settled` exception. */
  settlementGraceDays: number;
  /** Whether the sandbox bank settles by itself at 00:00 Africa/Lagos. */
  sandboxSettlement: boolean;
  /** Who may make an account on the sign-up page: anyone (open), only people with an invite (invite), nobody (closed). */
  signup: "open" | "invite" | "closed";
  /** null: /metrics answers loopback clients only. */
  metricsToken: string | null;
  /** null: no traces are sent. */
  otlpEndpoint: string | null;
};

export class SettingsError extends Error {}

/** Reads a generated secret from the data folder, creating it (owner-only) on first start. */
function generatedSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  privateFolder(dataDir);
  if (existsSync(file)) {
    chmodSync(file, PRIVATE_FILE);
    return readFileSync(file, "utf8").trim();
  }
  const value = make();
  writeFileSync(file, value + "\n", { mode: PRIVATE_FILE, flag: "wx" });
  chmodSync(file, PRIVATE_FILE);
  return value;
}

export function parseSettings(env: Record<string, string | undefined>): Settings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new SettingsError(`Invalid settings:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  let target: DatabaseTarget;
  try {
    target = databaseTargetOf(e.DATABASE_URL);
  } catch (err) {
    if (err instanceof UnusableDatabaseUrl) throw new SettingsError(`Invalid settings:\n  ${err.message}`);
    throw err;
  }
  // Generated secrets live beside a SQLite file; on PostgreSQL in OWO_DATA_DIR (several machines must set AUTH_SECRET
  // and OWO_MASTER_KEY alike instead, README "Running on PostgreSQL"). A run-time folder: Next's file tracer must not follow it.
  const dataDir =
    target.dialect === "postgres" || target.path === ":memory:"
      ? resolve(/* turbopackIgnore: true */ e.OWO_DATA_DIR ?? "data")
      : dirname(target.path);
  const hex32 = () => randomBytes(32).toString("hex");
  return {
    port: e.PORT,
    publicUrl: (e.OWO_PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ""),
    trustProxy: e.OWO_TRUST_PROXY,
    database: describeDatabase(target),
    dataDir,
    authSecret: e.AUTH_SECRET ?? generatedSecret(dataDir, "auth-secret", hex32),
    masterKey: Buffer.from(e.OWO_MASTER_KEY ?? generatedSecret(dataDir, "master-key", hex32), "hex"),
    tokenTtlSeconds: e.OWO_TOKEN_TTL_SECONDS,
    ussdTtlSeconds: e.OWO_USSD_TTL_SECONDS,
    transferTtlSeconds: e.OWO_TRANSFER_TTL_SECONDS,
    sweepIntervalSeconds: e.OWO_SWEEP_INTERVAL_SECONDS,
    rateLimitRps: e.OWO_RATE_LIMIT_RPS,
    rateLimitBurst: e.OWO_RATE_LIMIT_BURST,
    ipRateLimitPerMin: e.OWO_IP_RATE_LIMIT_PER_MIN,
    noticeRateLimitRps: e.OWO_NOTICE_RATE_LIMIT_RPS,
    allowPrivateCallbacks: e.OWO_ALLOW_PRIVATE_CALLBACKS,
    webhookBackoffScale: e.OWO_WEBHOOK_BACKOFF_SCALE,
    workerLeaseSeconds: e.OWO_WORKER_LEASE_SECONDS,
    worker: e.OWO_WORKER === "on",
    sandboxBankSecret: e.OWO_SANDBOX_BANK_SECRET ?? generatedSecret(dataDir, "sandbox-bank-secret", hex32),
    smtpUrl: e.OWO_SMTP_URL ?? null,
    mailFrom: e.OWO_MAIL_FROM,
    revocationSeconds: e.OWO_REVOCATION_SECONDS,
    sessionMaxSeconds: e.OWO_SESSION_MAX_SECONDS,
    maxConnectionsPerIp: e.OWO_MAX_CONNECTIONS_PER_IP,
    providerTimeoutMs: e.OWO_PROVIDER_TIMEOUT_MS,
    providerRestSeconds: e.OWO_PROVIDER_REST_SECONDS,
    requeryBackoffScale: e.OWO_REQUERY_BACKOFF_SCALE,
    allowProviderBaseUrl: e.OWO_ALLOW_PROVIDER_BASE_URL,
    settlementPollMinutes: e.OWO_SETTLEMENT_POLL_MINUTES,
    settlementGraceDays: e.OWO_SETTLEMENT_GRACE_DAYS,
    sandboxSettlement: e.OWO_SANDBOX_SETTLEMENT === "on",
    signup: e.OWO_SIGNUP,
    metricsToken: e.OWO_METRICS_TOKEN ?? null,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
  };
}

const holder = globalThis as unknown as { __owoSettings?: Settings };

/** The process's settings; shared with Next's bundled copy of this module through globalThis. */
export function settings(): Settings {
  holder.__owoSettings ??= parseSettings(process.env);
  return holder.__owoSettings;
}
