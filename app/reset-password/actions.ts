"use server";
import { ApiError } from "@/server/api-error";
import { completePasswordReset } from "@/server/users/password-reset";
import { requestOrigin } from "@/app/request-origin";
import { actionArguments, typed, UNREADABLE } from "@/server/http/action-arguments";
import { z } from "zod";

const resetInput = z.tuple([typed(200), typed()]);

export type ResetResult = { ok: true; email: string } | { ok: false; message: string; field: string | null };

export async function chooseNewPassword(rawToken: string, rawPassword: string): Promise<ResetResult> {
  const args = actionArguments(resetInput, [rawToken, rawPassword]);
  if (!args) return { ok: false, message: UNREADABLE, field: null };
  const [token, password] = args;
  try {
    return { ok: true, ...(await completePasswordReset(token, password, await requestOrigin())) };
  } catch (e) {
    if (e instanceof ApiError) {
      const field = e.errors.find((f) => f.field === "password");
      return { ok: false, message: field ? `Password ${field.message}` : e.message, field: field ? "password" : null };
    }
    throw e;
  }
}
