// Every merchant on this Owo with its first owner's address: the operator's `merchant list` (API.md "Operator CLI").
import { and, asc, eq } from "drizzle-orm";
import { db } from "../../db/client";
import { memberships, merchants, users } from "../../db/schema";

export type ListedMerchant = { merchantId: string; name: string; ownerEmail: string | null };

export async function listMerchants(): Promise<ListedMerchant[]> {
  const rows = await db()
    .select({ merchantId: merchants.id, name: merchants.name, ownerEmail: users.email, since: memberships.createdAt })
    .from(merchants)
    .leftJoin(memberships, and(eq(memberships.merchantId, merchants.id), eq(memberships.role, "owner")))
    .leftJoin(users, eq(users.id, memberships.userId))
    .orderBy(asc(merchants.createdAt), asc(merchants.id), asc(memberships.createdAt));
  // A merchant with several owners is listed once, with the owner who joined first.
  const listed = new Map<string, ListedMerchant>();
  for (const r of rows)
    if (!listed.has(r.merchantId)) listed.set(r.merchantId, { merchantId: r.merchantId, name: r.name, ownerEmail: r.ownerEmail });
  return [...listed.values()];
}
