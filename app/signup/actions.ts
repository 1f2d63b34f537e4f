"use server";
import { cookies } from "next/headers";
import { ApiError } from "@/server/api-error";
import { MERCHANT_COOKIE } from "@/server/auth/callers";
import { signUpMerchant } from "@/server/merchants/sign-up";
import { acceptInvite, joinByInvite } from "@/server/team/invites";
import { signedInUserId } from "./session";
import { actionArguments, typed, UNREADABLE } from "@/server/http/action-arguments";
import { z } from "zod";

const signUpInput = z.object({ name: typed(), email: typed(), password: typed(), invite: typed().optional() });

export type SignUpResult = { ok: true } | { ok: false; message: string; errors: Record<string, string> };

function refused(e: unknown): SignUpResult {
  if (e instanceof ApiError)
    return { ok: false, message: e.message, errors: Object.fromEntries(e.errors.map((f) => [f.field, f.message])) };
  throw e;
}

/** Without an invite: a new merchant and its owner. With one: a new person joining that merchant's team. */
export async function signUp(raw: { name: string; email: string; password: string; invite?: string }): Promise<SignUpResult> {
  const input = actionArguments(signUpInput, raw);
  if (!input) return { ok: false, message: UNREADABLE, errors: {} };
  try {
    if (input.invite) await joinByInvite({ name: input.name, email: input.email, password: input.password, invite: input.invite });
    else await signUpMerchant({ name: input.name, email: input.email, password: input.password });
    return { ok: true };
  } catch (e) {
    return refused(e);
  }
}

/** The signed-in person (whatever teams they are on, maybe none) joins the invite's team and switches to it. */
export async function acceptInviteAsSignedIn(raw: string): Promise<SignUpResult> {
  const invite = actionArguments(typed(), raw);
  if (invite === null) return { ok: false, message: UNREADABLE, errors: {} };
  const userId = await signedInUserId();
  if (!userId) return { ok: false, message: "Your session has ended; sign in again, then open the invite link.", errors: {} };
  try {
    const joined = await acceptInvite(invite, userId);
    (await cookies()).set(MERCHANT_COOKIE, joined.merchantId, { httpOnly: true, sameSite: "lax", path: "/" });
    return { ok: true };
  } catch (e) {
    return refused(e);
  }
}
