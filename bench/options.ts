// `npm run bench` flags, checked before anything starts: a typo must not cost a ten-minute run.
export type Dialect = "sqlite" | "postgres";

export type BenchOptions = {
  quick: boolean;
  profile: boolean;
  noBuild: boolean;
  /** Only the scenarios whose name holds this word. */
  only: string | undefined;
  /** Run in this order; each with its own database, floor and table rows. */
  dialects: Dialect[];
  /** App instances side by side on PostgreSQL (SQLite is measured with one: one writer, one file). */
  instances: number[];
  /** Owo as the bench ran it before issue 15 (warn logging, no worker, no sweeper): what deployment costs. */
  lean: boolean;
  /** Measured seconds per scenario, overriding the mode's (5 quick, 20 full). */
  seconds: number | undefined;
  /** Pairs of credit legs or slices, posting on and off, the books' posting cost is read from; each database has its
   * own default when absent (bench/books.ts). */
  pairs: number | undefined;
  /**
   * PostgreSQL as a deployment runs it, syncing its WAL at every commit (fsync, synchronous_commit and full page
   * writes on), instead of as the tests run it (all three off, db/throwaway-postgres.ts).
   */
  durable: boolean;
};

export class BenchUsage extends Error {}

const KNOWN = ["--quick", "--profile", "--no-build", "--lean", "--durable", "--only=", "--db=", "--instances=", "--seconds=", "--pairs="];

export function parseOptions(argv: string[]): BenchOptions {
  const value = (name: string) => argv.findLast((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
  for (const a of argv) {
    if (!KNOWN.some((k) => (k.endsWith("=") ? a.startsWith(k) : a === k)))
      throw new BenchUsage(`unknown flag ${a}; known: ${KNOWN.join(" ")}`);
  }
  const dialects = (value("--db") ?? "sqlite").split(",").map((d) => d.trim());
  for (const d of dialects)
    if (d !== "sqlite" && d !== "postgres")
      throw new BenchUsage(`--db: expected sqlite, postgres or both (sqlite,postgres), not ${JSON.stringify(d)}`);
  const instances = (value("--instances") ?? "1").split(",").map((n) => n.trim());
  for (const n of instances)
    if (!/^[1-9][0-9]?$/.test(n)) throw new BenchUsage(`--instances: expected counts from 1 to 99 such as 1,2,4, not ${JSON.stringify(n)}`);
  const counts = [...new Set(instances.map(Number))].sort((a, b) => a - b);
  if (counts.some((n) => n > 1) && !dialects.includes("postgres"))
    throw new BenchUsage("--instances above 1 needs --db=postgres: SQLite is one file with one writer");
  const seconds = value("--seconds");
  if (seconds !== undefined && !/^[1-9][0-9]{0,2}$/.test(seconds))
    throw new BenchUsage(`--seconds: expected whole seconds from 1 to 999, not ${JSON.stringify(seconds)}`);
  const pairs = value("--pairs");
  if (pairs !== undefined && !/^[1-9][0-9]{0,2}$/.test(pairs))
    throw new BenchUsage(`--pairs: expected a count from 1 to 999, not ${JSON.stringify(pairs)}`);
  return {
    quick: argv.includes("--quick"),
    profile: argv.includes("--profile"),
    noBuild: argv.includes("--no-build"),
    only: value("--only"),
    dialects: [...new Set(dialects as Dialect[])],
    instances: counts,
    lean: argv.includes("--lean"),
    seconds: seconds === undefined ? undefined : Number(seconds),
    pairs: pairs === undefined ? undefined : Number(pairs),
    durable: argv.includes("--durable"),
  };
}
