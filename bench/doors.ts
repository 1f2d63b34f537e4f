// The API doors on one database (issue 27): the floor (bench/floor.ts) and Owo side by side, verify and initiate over
// REST and tRPC at 32 connections, each scenario on the floors and then on the Owos so the machine's noise falls on both.
import { bestOfRounds, type LoadResult } from "./report";
import { initiateOverRest, initiateOverTrpc, verifyByReference, type Target } from "./scenarios";
import { CONNECTIONS, pidsOf, startOwos, stopAll, tokenFor, type BenchMerchant, type Stage } from "./stage";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../server/testing/harness";
import { BENCH_DIST, startChild } from "./processes";

/** Floors and Owos up at once, each scenario run on the floors and then on the Owos: the machine's noise falls on both alike. */
export async function machineDoors(s: Stage, floorUrl: string, instances: number, bench: BenchMerchant, references: string[]) {
  const floorPorts = await Promise.all(Array.from({ length: instances }, () => freePort()));
  console.log(
    `\n${s.db.dialect}, ${instances} instance(s): floor (bench/floor.ts, a copy of the database) against owo (server/main.ts, ${s.run.pages ? `production build in ${BENCH_DIST}` : "API only"})`,
  );
  const floors = await Promise.all(
    floorPorts.map((port) =>
      startChild(s.run.root, "bench/floor.ts", {
        PORT: String(port),
        DATABASE_URL: floorUrl,
        OWO_PUBLIC_URL: `http://127.0.0.1:${port}`,
        FLOOR_MERCHANT_ID: bench.merchantId,
        FLOOR_MERCHANT_NAME: bench.name,
      }),
    ),
  );
  const owos = await startOwos(s, instances).catch(async (e: unknown) => {
    await stopAll(floors);
    throw e;
  });
  try {
    const common = { publicKey: bench.publicKey, connections: CONNECTIONS, seconds: s.run.size.seconds };
    const client = { client: () => [process.pid] };
    const atFloor: Target = {
      ...common,
      urls: floors.map((f) => f.url),
      token: "none",
      server: "floor",
      cpu: { floor: pidsOf(floors), ...s.db.parties(), ...client },
      counters: s.db.counters(floorUrl),
    };
    const at: Target = {
      ...common,
      urls: owos.map((o) => o.url),
      token: await tokenFor(owos[0]?.url ?? "", bench),
      server: "owo",
      cpu: { owo: pidsOf(owos), ...s.db.parties(), ...client },
      counters: s.db.counters(s.db.url),
    };
    const rounds: LoadResult[][] = [];
    for (let round = 1; round <= s.run.size.rounds; round++) {
      if (s.run.size.rounds > 1) console.log(`  round ${round} of ${s.run.size.rounds}`);
      const results: LoadResult[] = [];
      if (s.run.wanted("verify")) {
        const base = await verifyByReference(atFloor, references);
        results.push(base, await verifyByReference(at, references, base.scenario));
      }
      for (const channel of ["USSD", "TRANSFER"] as const) {
        if (!s.run.wanted(`initiate ${channel}`)) continue;
        const base = await initiateOverRest(atFloor, channel);
        results.push(base, await initiateOverRest(at, channel, base.scenario), await initiateOverTrpc(at, channel, base.scenario));
      }
      rounds.push(results);
    }
    s.outcomes.push(...bestOfRounds(rounds));
  } finally {
    await Promise.all([stopAll(floors), stopAll(owos)]);
  }
  const logged = owos.reduce(
    (n, _, i) => n + (existsSync(join(s.dataDir, `owo-${i + 1}.log`)) ? statSync(join(s.dataDir, `owo-${i + 1}.log`)).size : 0),
    0,
  );
  console.log(`  owo wrote ${(logged / 1048576).toFixed(1)} MB of log lines`);
}
