"use server";
import { ApiError } from "@/server/api-error";
import { verifyEmail } from "@/server/users/email-verification";
import { actionArguments, typed, UNREADABLE } from "@/server/http/action-arguments";

export type VerifyResult = { ok: true; email: string } | { ok: false; message: string };

export async function confirmEmail(raw: string): Promise<VerifyResult> {
  const token = actionArguments(typed(), raw);
  if (token === null) return { ok: false, message: UNREADABLE };
  try {
    return { ok: true, ...(await verifyEmail(token)) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, message: e.message };
    throw e;
  }
}
