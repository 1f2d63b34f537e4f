"use server";
import { cookies } from "next/headers";
import { MERCHANT_COOKIE, roleIn } from "@/server/auth/callers";
import { pageCaller } from "@/server/trpc/page-caller";

/** Only a merchant the user belongs to can be chosen; the cookie is re-checked on every request anyway. */
export async function switchMerchant(merchantId: string): Promise<void> {
  const { caller } = await pageCaller();
  if (!caller || !roleIn(caller.userId, merchantId)) return;
  (await cookies()).set(MERCHANT_COOKIE, merchantId, { httpOnly: true, sameSite: "lax", path: "/" });
}
