// Every environment variable Owo reads (API.md "Settings", README "Settings"), declared once: its name, its rule and
// its default. db/ and server/ alike read the environment here and nowhere else; server/settings.ts derives what the
// process needs from it (the public URL, the data folder, generated secrets). Like create-t3-app's env.mjs, but read
// lazily: nothing is validated when a module is imported except the one variable that module asks for, so `next
// build` and a start-up with a bad value still reach the place that names it.
import { z } from "zod";
import { databaseTargetOf, DEFAULT_DATABASE_URL, UnusableDatabaseUrl } from "./db/location";

export class SettingsError extends Error {}

const seconds = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
/** Unset or empty: undefined, so the rule's default applies. */
const unsetIfEmpty = <T extends z.ZodType>(rule: T) => z.preprocess((v) => (v === "" ? undefined : v), rule);
const positive = (fallback: number) =>
  unsetIfEmpty(
    z
      .string()
      .regex(/^[1-9][0-9]*$/, "expected a positive whole number")
      .default(String(fallback))
      .transform(Number),
  );
const flag = z
  .enum(["0", "1", "true", "false", "on", "off", ""])
  .default("0")
  .transform((v) => ["1", "true", "on"].includes(v));
const onOff = z
  .enum(["on", "off"])
  .default("on")
  .transform((v) => v === "on");
/** Unset or empty: null. */
const optional = <T extends z.ZodType>(rule: T) => unsetIfEmpty(rule.optional()).transform((v) => v ?? null);

const setting = <T extends z.ZodType>(name: string, rule: T) => ({ name, rule });

const declared = {
  port: setting("PORT", z.coerce.number().int().min(0).max(65535).default(3000)),
  /** As given; the settings' publicUrl defaults it from the port. */
  givenPublicUrl: setting("OWO_PUBLIC_URL", z.url({ protocol: /^https?$/ }).optional()),
  trustProxy: setting("OWO_TRUST_PROXY", flag),
  databaseUrl: setting("DATABASE_URL", z.string().min(1).default(DEFAULT_DATABASE_URL)),
  givenDataDir: setting("OWO_DATA_DIR", z.string().min(1).optional()),
  /** Unset: generated into the data folder (server/settings.ts). */
  givenAuthSecret: setting("AUTH_SECRET", z.string().min(32, "must be at least 32 characters").optional()),
  givenMasterKey: setting(
    "OWO_MASTER_KEY",
    z
      .string()
      .regex(/^[0-9a-f]{64}$/, "must be 64 hex characters (32 bytes)")
      .optional(),
  ),
  givenSandboxBankSecret: setting("OWO_SANDBOX_BANK_SECRET", z.string().min(16).optional()),
  tokenTtlSeconds: setting("OWO_TOKEN_TTL_SECONDS", seconds(86400, 1)),
  ussdTtlSeconds: setting("OWO_USSD_TTL_SECONDS", seconds(600, 1)),
  transferTtlSeconds: setting("OWO_TRANSFER_TTL_SECONDS", seconds(1800, 1)),
  sweepIntervalSeconds: setting("OWO_SWEEP_INTERVAL_SECONDS", z.coerce.number().min(0).default(15)),
  rateLimitRps: setting("OWO_RATE_LIMIT_RPS", z.coerce.number().min(0).default(50)),
  rateLimitBurst: setting("OWO_RATE_LIMIT_BURST", z.coerce.number().int().min(0).default(100)),
  ipRateLimitPerMin: setting("OWO_IP_RATE_LIMIT_PER_MIN", z.coerce.number().int().min(0).default(60)),
  /** Provider notices a second per provider account and per client IP (the public notice doors); 0: no limit. */
  noticeRateLimitRps: setting("OWO_NOTICE_RATE_LIMIT_RPS", z.coerce.number().min(0).default(10)),
  allowPrivateCallbacks: setting("OWO_ALLOW_PRIVATE_CALLBACKS", flag),
  webhookBackoffScale: setting("OWO_WEBHOOK_BACKOFF_SCALE", z.coerce.number().positive().default(1)),
  workerLeaseSeconds: setting("OWO_WORKER_LEASE_SECONDS", seconds(60, 1)),
  worker: setting("OWO_WORKER", onOff),
  /** null: no SMTP, mail stays in the outbox (dashboard "Mail sent by this Owo", `owo mail list`). */
  smtpUrl: setting("OWO_SMTP_URL", optional(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }))),
  mailFrom: setting("OWO_MAIL_FROM", z.string().trim().min(3).max(200).default("Owo <no-reply@localhost>")),
  revocationSeconds: setting("OWO_REVOCATION_SECONDS", z.coerce.number().min(0).default(2)),
  sessionMaxSeconds: setting("OWO_SESSION_MAX_SECONDS", seconds(43200, 60)),
  maxConnectionsPerIp: setting("OWO_MAX_CONNECTIONS_PER_IP", z.coerce.number().int().min(0).default(256)),
  providerTimeoutMs: setting("OWO_PROVIDER_TIMEOUT_MS", z.coerce.number().int().min(1).default(5000)),
  providerRestSeconds: setting("OWO_PROVIDER_REST_SECONDS", seconds(60)),
  requeryBackoffScale: setting("OWO_REQUERY_BACKOFF_SCALE", z.coerce.number().positive().default(1)),
  allowProviderBaseUrl: setting("OWO_ALLOW_PROVIDER_BASE_URL", flag),
  /** How often each live provider's settlements are read. */
  settlementPollMinutes: setting("OWO_SETTLEMENT_POLL_MINUTES", z.coerce.number().int().min(1).default(60)),
  /** Working days a credit may wait for a settlement before it is a `not_settled` exception. */
  settlementGraceDays: setting("OWO_SETTLEMENT_GRACE_DAYS", z.coerce.number().int().min(0).default(3)),
  /** Whether the sandbox bank settles by itself at 00:00 Africa/Lagos. */
  sandboxSettlement: setting("OWO_SANDBOX_SETTLEMENT", onOff),
  /** Who may make an account on the sign-up page: anyone (open), only people with an invite (invite), nobody (closed). */
  signup: setting("OWO_SIGNUP", z.enum(["open", "invite", "closed"], { error: "must be open, invite or closed" }).default("open")),
  /** null: /metrics answers loopback clients only. */
  metricsToken: setting("OWO_METRICS_TOKEN", optional(z.string().min(16, "must be at least 16 characters"))),
  /** null: no traces are sent. */
  otlpEndpoint: setting(
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    optional(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL (the OTLP/HTTP receiver)" })),
  ),
  /** Connections each process keeps to PostgreSQL in its pool. */
  dbPoolSize: setting("OWO_DB_POOL_SIZE", positive(10)),
  /** A statement running longer is cancelled (PostgreSQL). */
  dbStatementTimeoutMs: setting("OWO_DB_STATEMENT_TIMEOUT_MS", positive(5000)),
  /** pino's level. */
  logLevel: setting("LOG_LEVEL", unsetIfEmpty(z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"))),
  /** off: an API-only process (REST, tRPC, health), no Next build needed. */
  pages: setting("OWO_PAGES", onOff),
  /** `npm run bench` only: off books nothing, to measure what posting costs (never in a deployment). */
  benchPosting: setting("OWO_BENCH_POSTING", onOff),
  /** production refuses to move the clock; test lets a started process follow the test's clock file. */
  nodeEnv: setting("NODE_ENV", z.string().optional()),
  /** Under NODE_ENV=test only: the file holding how far the test moved the clock (server/clock.ts). */
  testClockFile: setting("OWO_TEST_CLOCK_FILE", z.string().min(1).optional()),
};

type Declared = typeof declared;
export type Environment = { [K in keyof Declared]: z.output<Declared[K]["rule"]> };

const schema = z.object(Object.fromEntries(Object.values(declared).map((d) => [d.name, d.rule])));

function refusal(lines: string[]): SettingsError {
  return new SettingsError(`Invalid settings:\n${lines.map((l) => `  ${l}`).join("\n")}`);
}

/** Every variable, checked together so that one message names every bad one. */
export function parseEnvironment(env: Record<string, string | undefined>): Environment {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw refusal(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  try {
    databaseTargetOf(parsed.data[declared.databaseUrl.name] as string);
  } catch (err) {
    if (err instanceof UnusableDatabaseUrl) throw refusal([err.message]);
    throw err;
  }
  // Keyed back from the variables' names to the settings' own: the declarations above give each its type.
  return Object.fromEntries(Object.entries(declared).map(([key, d]) => [key, parsed.data[d.name]])) as Environment;
}

/** Every variable of this process's environment, checked together (start-up names every bad one at once). */
export function processEnvironment(): Environment {
  return parseEnvironment(process.env);
}

/**
 * next-auth v4 reads NEXTAUTH_URL and NEXTAUTH_SECRET from the process environment itself: they are written here, from
 * Owo's own settings, so that PORT and OWO_PUBLIC_URL keep its redirects right.
 */
export function tellNextAuth(publicUrl: string, authSecret: string): void {
  process.env.NEXTAUTH_URL = publicUrl;
  process.env.NEXTAUTH_SECRET = authSecret;
}

/** One variable of this process's environment, by its rule (a module reading one needs not the rest to be right). */
export function environment<K extends keyof Environment>(key: K): Environment[K] {
  const d = declared[key];
  // Each declaration's own rule; TypeScript cannot call a union of them, and the result is typed by `Environment`.
  const parsed = (d.rule as z.ZodType).safeParse(process.env[d.name]);
  if (!parsed.success) throw refusal(parsed.error.issues.map((i) => `${d.name}: ${i.message}`));
  return parsed.data as Environment[K];
}

let chosen: "sqlite" | "postgres" | undefined;

/**
 * The one place the dialect is chosen: from DATABASE_URL when first asked, then kept (a process runs on one database;
 * a test points DATABASE_URL at another database of the same dialect, never the other).
 */
export function databaseDialect(): "sqlite" | "postgres" {
  chosen ??= databaseTargetOf(environment("databaseUrl")).dialect;
  return chosen;
}
