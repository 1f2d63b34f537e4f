"use server";
import { cookies } from "next/headers";
import { MERCHANT_COOKIE, MODE_COOKIE, roleIn } from "@/server/auth/callers";
import { pageCaller } from "@/server/trpc/page-caller";
import { actionArguments, typed } from "@/server/http/action-arguments";

/** Only a merchant the user belongs to can be chosen; the cookie is re-checked on every request anyway. */
export async function switchMerchant(raw: string): Promise<void> {
  const merchantId = actionArguments(typed(64), raw);
  const { caller } = await pageCaller();
  if (merchantId === null || !caller || !(await roleIn(caller.userId, merchantId))) return;
  (await cookies()).set(MERCHANT_COOKIE, merchantId, { httpOnly: true, sameSite: "lax", path: "/" });
}

/** Test or live; the cookie is only a wish: live holds only while the merchant has a connected provider (userCaller). */
export async function switchMode(mode: "test" | "live"): Promise<void> {
  (await cookies()).set(MODE_COOKIE, mode === "live" ? "live" : "test", { httpOnly: true, sameSite: "lax", path: "/" });
}
