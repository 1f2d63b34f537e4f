// One deployment as several processes for the multi-instance suite: app instances and callback workers on one
// shared database, requests handed out in turn as a round-robin load balancer would, and any of them killable.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { freePort, tempDataDir, TEST_ENV } from "./harness";
import { databaseIn, spawnOwo, spawnWorker, type OwoProcess, type Spawned } from "./processes";
import { startPostgres } from "../../db/throwaway-postgres";
import { closeDatabase } from "../../db/client";

export type Dialect = "sqlite" | "postgres";

/** OWO_SCALE_DB chooses what the fleet shares: one throwaway PostgreSQL (the way Owo scales out), or one SQLite file (WAL). */
export function fleetDialect(): Dialect {
  const chosen = process.env.OWO_SCALE_DB ?? "postgres";
  if (chosen !== "sqlite" && chosen !== "postgres") throw new Error(`OWO_SCALE_DB must be sqlite or postgres, not ${chosen}`);
  return chosen;
}

export type SharedDatabase = { dialect: Dialect; url: string; stop: () => void };

/** `npm run db:migrate`, once, before any instance starts: what an operator deploying several instances does. */
function migrate(url: string): void {
  const r = spawnSync(process.execPath, ["--import", "tsx", "db/migrate-cli.ts"], {
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`db:migrate failed:\n${r.stdout}${r.stderr}`);
}

export async function startSharedDatabase(dialect: Dialect): Promise<SharedDatabase> {
  if (dialect === "sqlite") {
    const dir = tempDataDir();
    const url = databaseIn(dir);
    migrate(url);
    return { dialect, url, stop: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = await startPostgres();
  const url = await server.createDatabase("owo_fleet");
  migrate(url);
  return { dialect, url, stop: server.stop };
}

/**
 * What every process of one deployment must share (API.md "Settings": with several instances the master key must be
 * given, the same to all), set in this test process too so that the fixtures it writes directly read the same way.
 */
function sharedSecrets(): Record<string, string> {
  return {
    AUTH_SECRET: randomBytes(32).toString("hex"),
    OWO_MASTER_KEY: randomBytes(32).toString("hex"),
    OWO_SANDBOX_BANK_SECRET: randomBytes(24).toString("hex"),
  };
}

export type FleetOptions = { apps: number; workers: number; appEnv?: Record<string, string>; workerEnv?: Record<string, string> };

export type Fleet = {
  db: SharedDatabase;
  /** By index; a restarted instance takes its index and port back, as it would its place behind the balancer. */
  apps: OwoProcess[];
  workers: Spawned[];
  /** The instance whose turn it is. */
  next: () => OwoProcess;
  killApp: (index: number) => Promise<void>;
  restartApp: (index: number) => Promise<void>;
  killWorker: (index: number) => Promise<void>;
  restartWorker: (index: number) => Promise<void>;
  /** The error lines every process of the fleet has logged so far, killed ones included: what a failing case quotes. */
  errors: () => string[];
  stop: () => Promise<void>;
};

async function kill(p: Spawned): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  await p.exited;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const db = await startSharedDatabase(fleetDialect());
  const common = { ...sharedSecrets(), OWO_ALLOW_PRIVATE_CALLBACKS: "1" };
  Object.assign(process.env, TEST_ENV, common, { DATABASE_URL: db.url });
  const ports = await Promise.all(Array.from({ length: options.apps }, () => freePort()));
  const everyone: Spawned[] = [];
  const started = <T extends Spawned>(p: T) => (everyone.push(p), p);
  const startApp = (i: number) => spawnOwo(db.url, { ...common, OWO_WORKER: "off", ...options.appEnv }, ports[i]).then(started);
  const startWorker = () => spawnWorker(db.url, { ...common, ...options.workerEnv }).then(started);
  const apps = await Promise.all(ports.map((_, i) => startApp(i)));
  const workers = await Promise.all(Array.from({ length: options.workers }, startWorker));
  // Proof through the instances themselves that they run on the database chosen, and that it is migrated.
  for (const app of apps) {
    const ready = await fetch(`${app.url}/api/ready`);
    const said = await ready.text();
    if (ready.status !== 200 || (JSON.parse(said) as { database?: { dialect?: string } }).database?.dialect !== db.dialect) {
      throw new Error(`${app.url} is not ready on ${db.dialect}: ${said}`);
    }
  }
  let turn = 0;
  return {
    db,
    apps,
    workers,
    next: () => apps[turn++ % apps.length] as OwoProcess,
    killApp: (i) => kill(apps[i] as OwoProcess),
    restartApp: async (i) => {
      apps[i] = await startApp(i);
    },
    killWorker: (i) => kill(workers[i] as Spawned),
    restartWorker: async (i) => {
      workers[i] = await startWorker();
    },
    // pino's levels: 50 error, 60 fatal.
    errors: () =>
      everyone.flatMap((p) =>
        p
          .output()
          .split("\n")
          .filter((line) => /"level":[56]0\b/.test(line)),
      ),
    stop: async () => {
      await Promise.all([...apps, ...workers].map(kill));
      // This process's own connection (the fixtures it wrote) goes before the database does.
      await closeDatabase();
      db.stop();
    },
  };
}
