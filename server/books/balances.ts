// GET /api/v2/balances (API.md "Ledger and balances"): every account of the merchant's books in its natural sign,
// read from the balance rows (never a scan of the entries), with the chain's head anyone can keep and check later.
import { and, eq, inArray, isNull } from "drizzle-orm";
import { readSnapshot, type Db } from "../../db/client";
import { ledgerBalances, ledgerHeads, providerAccounts } from "../../db/schema";
import { clock } from "../clock";
import { formatKobo } from "../money";
import { naturalBalance } from "./accounts";
import { GENESIS_HASH } from "./chain";
import type { Scope } from "../merchants/scope";

const SINGLE = {
  bank: "bank",
  sales: "sales",
  fees: "fees",
  refunds: "refunds",
  refundDue: "refund_due",
  adjustments: "adjustments",
  external: "external",
  suspense: "suspense",
} as const;

/** Which provider each of the merchant's provider accounts is at ("sandbox" for the sandbox bank's account). */
export async function providerNames(q: Db, merchantId: string, providerIds: string[]): Promise<Map<string, string>> {
  const live = providerIds.filter((id) => id !== "sandbox");
  const named = live.length
    ? await q
        .select({ id: providerAccounts.id, provider: providerAccounts.provider })
        .from(providerAccounts)
        .where(and(eq(providerAccounts.merchantId, merchantId), inArray(providerAccounts.id, live)))
    : [];
  return new Map([["sandbox", "sandbox"], ...named.map((n): [string, string] => [n.id, n.provider])]);
}

async function connectedAccounts(q: Db, merchantId: string): Promise<string[]> {
  const rows = await q
    .select({ id: providerAccounts.id })
    .from(providerAccounts)
    .where(and(eq(providerAccounts.merchantId, merchantId), isNull(providerAccounts.disconnectedAt)));
  return rows.map((r) => r.id);
}

export async function balancesOf({ merchantId, mode }: Scope) {
  return readSnapshot(async (q) => {
    const rows = await q
      .select()
      .from(ledgerBalances)
      .where(and(eq(ledgerBalances.merchantId, merchantId), eq(ledgerBalances.mode, mode)));
    const [head] = await q
      .select()
      .from(ledgerHeads)
      .where(and(eq(ledgerHeads.merchantId, merchantId), eq(ledgerHeads.mode, mode)));
    const stored = new Map(rows.map((r) => [r.account, r.balanceKobo]));
    // Every provider that serves the merchant has its line, at 0.00 before its first credit: the sandbox in test mode,
    // each connected account in live mode; a disconnected one keeps its line once its books have a balance row.
    const providerIds = new Set<string>(mode === "test" ? ["sandbox"] : await connectedAccounts(q, merchantId));
    for (const r of rows) {
      const m = /^provider(?:_wallet)?:(.+)$/.exec(r.account);
      if (m?.[1]) providerIds.add(m[1]);
    }
    const providerOf = await providerNames(q, merchantId, [...providerIds]);
    const providers = [...providerIds].sort().map((id) => ({
      providerId: id,
      provider: providerOf.get(id) ?? "unknown",
      unsettled: formatKobo(stored.get(`provider:${id}`) ?? 0),
      wallet: formatKobo(stored.get(`provider_wallet:${id}`) ?? 0),
    }));
    const single = Object.fromEntries(
      Object.entries(SINGLE).map(([key, account]) => [key, formatKobo(naturalBalance(account, stored.get(account) ?? 0))]),
    ) as Record<keyof typeof SINGLE, string>;
    return {
      asOf: new Date(clock.now()).toISOString(),
      ledgerHead: { sequence: head?.sequence ?? 0, hash: head?.hash ?? GENESIS_HASH },
      balances: { providers, ...single },
    };
  });
}
