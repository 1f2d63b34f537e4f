// Background loops that must run once per database however many instances run them (the requery loop, the expiry
// sweeper): whoever holds the loop's lease row runs its passes and renews it as it goes; a dead holder's lease runs
// out, and a survivor takes the loop over.
import { randomBytes } from "node:crypto";
import { and, eq, lte, or } from "drizzle-orm";
import { write } from "../db/client";
import { leases } from "../db/schema";

export type LeaseName = "requery" | "sweeper";

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
