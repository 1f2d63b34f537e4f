import type { Metadata } from "next";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CodeBlock } from "../code-block";
import styles from "../docs.module.css";
import { SettingTable } from "../setting-table";

export const metadata: Metadata = { title: "Running in production" };

/** The files deploy/ ships, shown as they are: the page and the checked files cannot drift apart. */
const shipped = (path: string) => readFileSync(join(process.cwd(), "deploy", path), "utf8");

const MUST_SET = [
  ["the address customers and providers reach (checkout links, notice URLs, QR codes)", "OWO_PUBLIC_URL", "http://localhost:$PORT"],
  ["take the client's address and scheme from X-Forwarded-* (only behind your proxy)", "OWO_TRUST_PROXY", "off"],
  ["SQLite file, or postgres://… for several instances", "DATABASE_URL", "./data/owo.db"],
  ["session signing; the same on every instance", "AUTH_SECRET", "generated into the data folder"],
  ["seals provider credentials and signing secrets; the same on every instance, and in every backup", "OWO_MASTER_KEY", "generated into the data folder"],
  ["off on app instances when workers run apart", "OWO_WORKER", "on"],
  ["mail transport (sign-up links, security notices)", "OWO_SMTP_URL", "unset: mail is only kept"],
  [
    "who may make an account on /signup: open, anyone signs a merchant up; invite, only people with an invite link join a team; closed, nobody (the operator CLI creates merchants, signed-in people still accept invites)",
    "OWO_SIGNUP",
    "open",
  ],
  ["bearer token Prometheus sends for /metrics; unset, loopback only", "OWO_METRICS_TOKEN", "unset"],
  ["where OpenTelemetry traces go (OTLP over HTTP)", "OTEL_EXPORTER_OTLP_ENDPOINT", "unset: no traces"],
] as const;

const INSTALL = `# as root, on the machine
git clone … /opt/owo && cd /opt/owo && npm ci && npm run build
install -d -m 700 /etc/owo && install -m 600 deploy/owo.env.example /etc/owo/owo.env   # then edit it
cp deploy/systemd/owo.service deploy/systemd/owo-worker.service /etc/systemd/system/
systemctl daemon-reload && systemctl enable --now owo    # and owo-worker when OWO_WORKER=off
journalctl -u owo -f                                     # JSON lines, one per request with its request id`;

const PG_BACKUP = `# PostgreSQL: the database with pg_dump (custom format, consistent while instances keep writing) …
pg_dump --format=custom --file=owo-$(date +%F).dump "$DATABASE_URL"
# … and OWO_MASTER_KEY and AUTH_SECRET with it, from wherever you keep settings: without the master key every
# saved provider credential and signing secret in the dump is unreadable.
# Restore into an empty database, then start the instances with the same OWO_MASTER_KEY:
createdb owo && pg_restore --dbname=postgres://owo:…@db.internal:5432/owo --no-owner owo-2026-01-31.dump`;

const SQLITE_BACKUP = `# SQLite: a consistent copy while Owo runs, sealed with the master key and auth secret under a passphrase
npm run owo -- db backup --to /srv/backups/owo-$(date +%F).owo --passphrase-file /etc/owo/backup-passphrase
# restore on a new machine: DATABASE_URL must name a file in an empty folder
DATABASE_URL=/var/lib/owo/owo.db npm run owo -- db restore --from owo-2026-01-31.owo --passphrase-file backup-passphrase`;

const ALERTS = `# What to page on (Prometheus rules); the Grafana dashboard is deploy/grafana/owo-dashboard.json.
# An instance is down:
up{job="owo"} == 0
# Owo answers 500s (read the logs by request id):
sum(rate(owo_http_requests_total{status=~"5.."}[5m])) > 0
# REST p99 over half a second:
histogram_quantile(0.99, sum by (le) (rate(owo_http_request_duration_seconds_bucket{door="rest"}[5m]))) > 0.5
# A provider rests after repeated failures, or fails a fifth of its calls:
max(owo_provider_circuit_resting) == 1
sum by (provider) (rate(owo_provider_calls_total{outcome=~"unavailable|timeout"}[5m]))
  / sum by (provider) (rate(owo_provider_calls_total[5m])) > 0.2
# No provider could issue a payment:
sum by (mode) (increase(owo_initiations_total{outcome="S502"}[15m])) > 0
# Callbacks fall behind (is a worker running?), or mail is not leaving (OWO_SMTP_URL?):
max(owo_callback_oldest_due_age_seconds) > 300
max(owo_mail_queue_depth) > 100
# The books: any imbalance is a fault (stop and run: npm run owo -- ledger verify); exceptions wait for finance:
max(abs(owo_ledger_imbalance_kobo)) > 0
sum(owo_reconciliation_exceptions_open) > 0`;

export default function OperationsPage() {
  return (
    <>
      <h1>Running in production</h1>
      <p className={styles.lede}>
        Owo is one Node process (the app) and, optionally, callback workers beside it. Put a TLS proxy in front, run both as services, scrape
        /metrics, back up the database together with the master key, and upgrade by starting the new build before stopping the old.
      </p>

      <h2>Settings an operator sets</h2>
      <p>
        Everything else has a default that serves production (API.md lists every setting). Keep them in <code>/etc/owo/owo.env</code>, owner-only;{" "}
        <code>deploy/owo.env.example</code> is a start.
      </p>
      <SettingTable what="what it sets" rows={MUST_SET} />

      <h2>Services (systemd)</h2>
      <CodeBlock code={INSTALL} />
      <p>
        Both units run under their own dynamic user, with the data folder (the SQLite file and generated secrets) kept by systemd in{" "}
        <code>/var/lib/owo</code> and the rest of the system read-only. <code>systemctl stop</code> sends SIGTERM: Owo stops taking connections,
        finishes requests in flight and lets the worker finish the callbacks it holds, within 20 seconds.
      </p>
      <p>
        Memory: the units (and <code>npm start</code>) run node with <code>--max-semi-space-size=2</code>, V8&apos;s young generation at 2 MB a
        half instead of 16, so the app process rests at about 200 MB with the pages loaded instead of about 245 MB. A payments CSV export
        runs in a worker thread of the app with a heap of its own and adds about 60 MB while it streams, whatever its size. tsx keeps what it
        compiled in the unit&apos;s cache directory (<code>TMPDIR</code>): in a fresh <code>/tmp</code> every start would compile again and leave
        two esbuild processes (~31 MB) running beside Owo. <code>npm start</code> keeps npm itself (~60 MB) running as the parent; the units
        start node directly.
      </p>
      <CodeBlock label="deploy/systemd/owo.service" code={shipped("systemd/owo.service")} />
      <CodeBlock label="deploy/systemd/owo-worker.service" code={shipped("systemd/owo-worker.service")} />

      <h2>A proxy in front (TLS)</h2>
      <p>
        Caddy obtains and renews the certificate, and holds requests for up to 10 seconds while an instance restarts. With{" "}
        <code>OWO_TRUST_PROXY=1</code> Owo takes the client&apos;s address (rate limits, sign-in lockout, the Sessions page) and scheme from the
        first <code>X-Forwarded-For</code> and <code>X-Forwarded-Proto</code>; Caddy sets them itself and drops what a client sent. Behind
        another proxy make it do the same (nginx: <code>proxy_set_header X-Forwarded-For $remote_addr</code>, not{" "}
        <code>$proxy_add_x_forwarded_for</code>). Never set it when clients reach Owo directly: they could then name any address.
      </p>
      <CodeBlock label="deploy/Caddyfile" code={shipped("Caddyfile")} />

      <h2>PostgreSQL and several instances</h2>
      <p>
        One machine runs one app on SQLite. For more, or so that one can fail, set <code>DATABASE_URL=postgres://…</code>, give every instance
        the same <code>AUTH_SECRET</code> and <code>OWO_MASTER_KEY</code>, set <code>OWO_WORKER=off</code> on the app instances and run workers
        apart; list the instances in the proxy, which asks <code>/api/ready</code>. Details and the move from SQLite:{" "}
        <a href="/docs/postgres">Running on PostgreSQL</a>.
      </p>

      <h2>Upgrades</h2>
      <ol>
        <li>Take a backup (below).</li>
        <li>
          Build the new release beside the old one (<code>npm ci &amp;&amp; npm run build</code> in a new folder), then point the units at it.
        </li>
        <li>
          Migrations run at start: on PostgreSQL under an advisory lock, so once however many instances start. Start new instances first; each
          answers <code>/api/ready</code> only once the database carries its migrations, and an old instance stops being ready once a newer
          migration is applied, so the proxy moves traffic over by itself. Then stop the old instances (SIGTERM finishes what they hold).
        </li>
        <li>
          On SQLite (one process) <code>systemctl restart owo</code>: Caddy holds requests meanwhile, so clients see a pause of a few seconds,
          not an error.
        </li>
      </ol>
      <p>Within v2 changes are additive, so merchants&apos; integrations keep working across upgrades.</p>

      <h2>Backups and restores</h2>
      <p>
        A backup is the database and the master key together: losing <code>OWO_MASTER_KEY</code> (or <code>data/master-key</code>) makes every
        saved provider credential and signing secret unreadable. On SQLite <code>owo db backup</code> takes SQLite&apos;s online backup while
        Owo keeps writing and seals it with the master key, auth secret and sandbox bank secret under a key derived from your passphrase (scrypt,
        AES-256-GCM), so the passphrase alone opens it. <code>owo db restore</code> writes it into an empty data folder and checks it: SQLite&apos;s
        integrity check, the payments it holds, a sealed secret opened with the restored key, and then, brought to this version as a start would,
        <code>ledger verify</code> over every chain and balance: a copy whose books do not hold is reported bad (exit 1) with the fault. Keep
        the passphrase apart from the backups.
      </p>
      <CodeBlock code={SQLITE_BACKUP} />
      <CodeBlock code={PG_BACKUP} />

      <h2>What to watch</h2>
      <p>
        <code>GET /metrics</code> is Prometheus&apos;s text format. Without <code>OWO_METRICS_TOKEN</code> only loopback clients may read it, and
        every forwarded address must be loopback too (a forged <code>X-Forwarded-For</code> cannot borrow loopback, and a proxy on the same host
        does not make it public); with the token, the scrape sends <code>Authorization: Bearer …</code> from anywhere. Each instance serves its
        own counters; queue depths and provider circuits are read from the database, so every instance reports the same.
      </p>
      <ul>
        <li>
          <code>owo_http_requests_total</code>, <code>owo_http_request_duration_seconds</code>: by door (rest, trpc, page, probe, metrics) and
          route template
        </li>
        <li>
          <code>owo_initiations_total</code>: by mode, channel, provider and outcome (issued, replayed, or the API error code);{" "}
          <code>owo_payment_events_total</code>: state changes by event and resulting status
        </li>
        <li>
          <code>owo_provider_calls_total</code>, <code>owo_provider_call_duration_seconds</code>: by provider, operation and outcome (ok, refused,
          unavailable, timeout); <code>owo_provider_circuit_resting</code>: 1 while an account rests
        </li>
        <li>
          <code>owo_callback_attempts_total</code> by result, <code>owo_callback_queue_depth</code>,{" "}
          <code>owo_callback_oldest_due_age_seconds</code>, <code>owo_mail_queue_depth</code>, <code>owo_db_pool_connections</code>{" "}
          (PostgreSQL), and Node&apos;s own <code>process_*</code> and <code>nodejs_*</code>
        </li>
        <li>
          The books: <code>owo_ledger_imbalance_kobo</code> by mode, the sum of every ledger balance, which must always read 0;{" "}
          <code>owo_reconciliation_exceptions_open</code> by mode and kind, the disagreements with providers&apos; settlements and bank
          statements waiting on the Reconciliation page
        </li>
      </ul>
      <CodeBlock code={ALERTS} />
      <h2>Traces</h2>
      <p>
        Set <code>OTEL_EXPORTER_OTLP_ENDPOINT</code> (e.g. an OpenTelemetry Collector&apos;s <code>http://127.0.0.1:4318</code>) and each app
        instance sends OTLP over HTTP to its <code>/v1/traces</code>: one server span per request, named by method and route template and
        carrying the request id of the logs, with each provider call (provider, operation, outcome) and each database transaction inside it.
        Unset, no span is made at all. The usual <code>OTEL_*</code> variables (e.g. <code>OTEL_BSP_SCHEDULE_DELAY</code>) tune the exporter.
      </p>
      <p>
        Liveness: <code>GET /api/health</code>. Readiness (database answers, migrations current): <code>GET /api/ready</code>.
      </p>
    </>
  );
}
