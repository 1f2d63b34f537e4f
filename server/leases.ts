// Background loops that must run once per database however many instances run them (the requery loop, the expiry
// sweeper). Where the database has locks that die with their holder's connection (PostgreSQL's session advisory locks,
// db/client.ts `loopLocks`), the loop is held by one: a killed holder's loop moves on a survivor's next pass. SQLite
// has none, so there whoever holds the loop's lease row runs its passes and renews it as it goes; a killed holder's
// lease runs out first, and then a survivor takes the loop over.
import { randomBytes } from "node:crypto";
import { and, eq, lte, or } from "drizzle-orm";
import { loopLocks, write } from "../db/client";
import { leases } from "../db/schema";
import { clock } from "./clock";
import { log } from "./logger";

export type LeaseName = "requery" | "sweeper" | "sandbox-settlement" | "not-settled" | "settlement-poll";

/** A holder's name, unique to this process and loop, so a restarted process never mistakes its dead self's lease for its own. */
export function newLeaseHolder(): string {
  return `${process.pid}-${randomBytes(6).toString("hex")}`;
}

/** Takes or renews `name` for `seconds` from `now`: true while `holder` holds it, false while another's lease runs. */
export async function holdLease(name: LeaseName, holder: string, now: number, seconds: number): Promise<boolean> {
  return write(async (tx) => {
    const until = now + seconds * 1000;
    const taken = await tx
      .insert(leases)
      .values({ name, holder, until })
      .onConflictDoUpdate({ target: leases.name, set: { holder, until }, where: or(eq(leases.holder, holder), lte(leases.until, now)) })
      .returning({ name: leases.name });
    return taken.length > 0;
  });
}

/** A stopping holder hands its lease back, so another instance need not wait for it to run out. */
export async function releaseLease(name: LeaseName, holder: string): Promise<void> {
  await write(async (tx) => tx.delete(leases).where(and(eq(leases.name, name), eq(leases.holder, holder))));
}

export type LoopTurn = {
  /** Asked before each pass (and each step of a long one): whether this process runs the loop now. */
  held: () => Promise<boolean>;
  /** A stopping process hands the loop on at once. */
  release: () => Promise<void>;
};

/**
 * This process's turn at running `name`. `leaseSeconds` is the lease row's life (SQLite): long enough to outlast a
 * pass between renewals, and the longest a survivor waits when the holder is killed. Each change of hands is logged,
 * so an operator can tell which instance runs a loop.
 */
export function loopTurn(name: LeaseName, leaseSeconds: () => number): LoopTurn {
  const holder = newLeaseHolder();
  let running = false;
  const noted = (now: boolean) => {
    if (now !== running) log.info({ loop: name }, now ? "this instance now runs the loop" : "this instance no longer runs the loop");
    running = now;
    return now;
  };
  return {
    held: async () => {
      const locks = loopLocks();
      try {
        return noted(locks ? await locks.hold(name) : await holdLease(name, holder, clock.now(), leaseSeconds()));
      } catch (err) {
        noted(false);
        throw err;
      }
    },
    release: async () => {
      const locks = loopLocks();
      await (locks ? locks.release(name) : releaseLease(name, holder));
      noted(false);
    },
  };
}
