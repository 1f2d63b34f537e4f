// A throwaway PostgreSQL for one test process: initdb in a temp folder, pg_ctl on a free loopback port, removed
// afterwards. Never a server that happens to be running, never Docker. Debian's `postgresql` package provides the
// binaries (.ci/run installs it); without initdb this throws, so a PostgreSQL suite fails loudly instead of skipping.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export type PostgresServer = {
  url: string;
  databaseUrl: (database: string) => string;
  /** Creates an empty database on this server and answers its URL. */
  createDatabase: (database: string) => Promise<string>;
  stop: () => void;
};

/** One short-lived client: connected, used, and closed whatever happens. */
export async function onPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const DEBIAN = "/usr/lib/postgresql";

async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

function binaries(): string {
  const versions = existsSync(DEBIAN) ? readdirSync(DEBIAN).filter((v) => existsSync(join(DEBIAN, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(
      `PostgreSQL's initdb was not found under ${DEBIAN}/*/bin: install Debian's postgresql package (apt-get install -y postgresql; .ci/run does)`,
    );
  }
  return join(DEBIAN, newest, "bin");
}

/** PostgreSQL refuses to run as root; the Debian package's own `postgres` user runs it then, in a folder it owns. */
function runAs(): { prefix: string[]; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { prefix: ["runuser", "-u", "postgres", "--"], uid, gid };
}

/** `durable`: commits wait for the WAL to reach the disk, as on a production server (for measurements, never tests). */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = binaries();
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), "owo-pg-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const run = (tool: string, args: string[]) => {
    const [command, ...rest] = [...(user?.prefix ?? []), join(bin, tool), ...args];
    execFileSync(command ?? tool, rest, { stdio: ["ignore", "ignore", "pipe"] });
  };
  const data = join(dir, "data");
  const port = await freeLoopbackPort();
  run("initdb", ["-D", data, "-U", "owo", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"]);
  // fsync off: a test database need not survive the machine crashing, and syncing dominates a test's time.
  const unsynced = options.durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off";
  const serverOptions = `-k ${dir} -c listen_addresses=127.0.0.1 -p ${port}${unsynced} -c max_connections=200`;
  run("pg_ctl", ["-D", data, "-o", serverOptions, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  const databaseUrl = (database: string) => `postgres://owo@127.0.0.1:${port}/${database}`;
  const url = databaseUrl("postgres");
  const createDatabase = async (database: string) => {
    await onPostgres(url, (admin) => admin.query(`create database ${database}`));
    return databaseUrl(database);
  };
  return { url, databaseUrl, createDatabase, stop };
}
