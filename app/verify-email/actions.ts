"use server";
import { ApiError } from "@/server/api-error";
import { verifyEmail } from "@/server/users/email-verification";

export type VerifyResult = { ok: true; email: string } | { ok: false; message: string };

export async function confirmEmail(token: string): Promise<VerifyResult> {
  try {
    return { ok: true, ...(await verifyEmail(token)) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, message: e.message };
    throw e;
  }
}
