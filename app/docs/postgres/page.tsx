import type { Metadata } from "next";
import { CodeBlock } from "../code-block";
import styles from "../docs.module.css";
import { SettingTable } from "../setting-table";

export const metadata: Metadata = { title: "Running on PostgreSQL" };

const SETTINGS = [
  ["postgres://user:password@host:5432/database selects PostgreSQL; a file path is SQLite", "DATABASE_URL", "./data/owo.db"],
  ["connections each process keeps to PostgreSQL in its pool (an app instance keeps one more, for the background loops' lock)", "OWO_DB_POOL_SIZE", "10"],
  ["a statement running longer is cancelled; an idle transaction after twice that", "OWO_DB_STATEMENT_TIMEOUT_MS", "5000"],
  ["the same on every instance (generated ones live in one machine's data folder)", "AUTH_SECRET, OWO_MASTER_KEY", "generated into OWO_DATA_DIR"],
  ["off on app instances when callback workers run apart (npm run worker)", "OWO_WORKER", "on"],
] as const;

const START = `# once per deployment, or let the first instance do it at start-up (an advisory lock keeps it to one)
DATABASE_URL=postgres://owo:…@db.internal:5432/owo npm run db:migrate

# each app instance, behind the load balancer
DATABASE_URL=postgres://owo:…@db.internal:5432/owo AUTH_SECRET=… OWO_MASTER_KEY=… OWO_WORKER=off npm start

# callback workers, as many as you like
DATABASE_URL=postgres://owo:…@db.internal:5432/owo OWO_MASTER_KEY=… npm run worker`;

const MOVE = `npm run owo -- db copy --from ./data/owo.db --to postgres://owo:…@db.internal:5432/owo`;

export default function PostgresPage() {
  return (
    <>
      <h1>Running on PostgreSQL</h1>
      <p className={styles.lede}>
        One process on one SQLite file is the default. When one machine is not enough (for load, or so that one can fail), the same Owo runs on
        PostgreSQL with several app instances behind a load balancer and callback workers apart.
      </p>

      <h2>Settings</h2>
      <SettingTable what="what it sets" rows={SETTINGS} />

      <h2>Several instances and workers</h2>
      <CodeBlock code={START} />
      <p>
        Point the load balancer&apos;s liveness check at <code>GET /api/health</code> and its readiness check at <code>GET /api/ready</code>: 200
        only while PostgreSQL answers and carries every migration the build ships, with the server&apos;s own <code>version()</code> in{" "}
        <code>database.version</code>; otherwise 503 with a <code>reason</code>.
      </p>
      <p>
        Every write is one transaction, serializable unless a unique index decides the race; PostgreSQL retries one that collided with another
        from the start. The same payment reference sent to two instances at once makes one payment and the same answer twice. Due callbacks
        and mail are claimed <code>FOR UPDATE SKIP LOCKED</code> under a lease: workers racing for them take rows no other holds, without waiting
        for each other, and a killed worker&apos;s claims come back when their lease runs out. The sweeper and the requery loop are each held by
        a session advisory lock on one connection every instance keeps beside its pool (so it opens OWO_DB_POOL_SIZE + 1 connections): one
        instance runs each loop, a graceful stop hands it on at once, and when the holder is killed PostgreSQL drops the lock with its
        connection, so a survivor runs the loop on its next pass, well under a second later. (On SQLite a lease row must run out first: at
        least 10 seconds.) An instance logs &quot;this instance now runs the loop&quot; when it takes one. A rolled secret or revoked token is refused by every instance within OWO_REVOCATION_SECONDS (2 seconds).
      </p>

      <h2>Rate limits</h2>
      <p>
        On PostgreSQL the <a href="/docs/limits">rate limits</a> are the deployment&apos;s: each merchant&apos;s budget (per mode) and each
        client IP&apos;s is one row that every instance draws on, so three instances grant it once, not three times. Taking a token is one
        statement on an unlogged table (a crash empties it, which leaves every budget full); an instance remembers a refusal until the next token
        is due, so a client past its limit costs one statement per instance each time a token is due, however hard it pushes, and takes a busy key&apos;s tokens a few at a time (burst ÷ 20, 5 with
        the default burst, handed out within a second; bursts under 40 go one at a time and are exact). On SQLite, one process per file, the
        budgets live in that process&apos;s memory.
      </p>
      <p>
        Measured on one instance with 16 connections (Owo, PostgreSQL syncing at commit and the load on the same two busy cores): the statement
        takes 0.14 ms at the median; with the default burst a token request went from 8,077 to 6,735 requests a second, one that reads a payment
        from 4,916 to 4,306, and refused requests cost what no limit costs. <code>npx tsx bench/rate-limit-cost.ts --durable</code> measures it
        again.
      </p>

      <h2>Moving from SQLite</h2>
      <CodeBlock code={MOVE} />
      <p>
        Every row is copied into an empty, migrated PostgreSQL in one transaction, and the counts are compared table by table before it commits.
        Then start the instances with the new <code>DATABASE_URL</code>.
      </p>
    </>
  );
}
