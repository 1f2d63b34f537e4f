// One measured load of a scenario on one server: what every bench stage reports and the tables read (bench/report.ts).
// Apart from report.ts so that the stages computing from it (posting-cost.ts) need not import the report back.
import type { CpuUse } from "./cpu";
import type { Dialect } from "./options";

export type Server = "owo" | "floor";

export type LoadResult = {
  kind: "load";
  scenario: string;
  server: Server;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  /** The floor scenario this one is measured against. */
  compareWith?: string;
  /** Server processes sharing the load (one autocannon each); 1 when absent. */
  instances?: number;
  database?: Dialect;
  /** Cores used during the measured run, by party (bench/cpu.ts). */
  cpu?: CpuUse;
  /** PostgreSQL's transactions a second during the measured run: commits, and rollbacks (a retried serialization failure is one). */
  databasePerSecond?: Record<string, number>;
};
