// The merchant's default callback and redirect URLs, copied into each new payment link that names none.
import { eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { merchants } from "../../db/schema";
import { ApiError } from "../api-error";

export type LinkDefaults = { defaultCallbackUrl: string | null; defaultRedirectUrl: string | null };

export async function linkDefaults(merchantId: string): Promise<LinkDefaults> {
  const [row] = await db()
    .select({ defaultCallbackUrl: merchants.defaultCallbackUrl, defaultRedirectUrl: merchants.defaultRedirectUrl })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (!row) throw new ApiError("S404", "Merchant not found");
  return row;
}

/** Existing links keep the URLs they were created with: a customer mid-payment must not be re-routed. */
export async function setLinkDefaults(
  merchantId: string,
  input: { defaultCallbackUrl?: string; defaultRedirectUrl?: string },
): Promise<LinkDefaults> {
  const values = { defaultCallbackUrl: input.defaultCallbackUrl ?? null, defaultRedirectUrl: input.defaultRedirectUrl ?? null };
  await write(async (tx) => tx.update(merchants).set(values).where(eq(merchants.id, merchantId)));
  return values;
}
