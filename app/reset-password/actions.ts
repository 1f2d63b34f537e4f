"use server";
import { ApiError } from "@/server/api-error";
import { completePasswordReset } from "@/server/users/password-reset";
import { requestOrigin } from "@/app/request-origin";

export type ResetResult = { ok: true; email: string } | { ok: false; message: string; field: string | null };

export async function chooseNewPassword(token: string, password: string): Promise<ResetResult> {
  try {
    return { ok: true, ...(await completePasswordReset(String(token), String(password), await requestOrigin())) };
  } catch (e) {
    if (e instanceof ApiError) {
      const field = e.errors.find((f) => f.field === "password");
      return { ok: false, message: field ? `Password ${field.message}` : e.message, field: field ? "password" : null };
    }
    throw e;
  }
}
