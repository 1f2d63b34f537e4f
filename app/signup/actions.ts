"use server";
import { ApiError } from "@/server/api-error";
import { createMerchant } from "@/server/merchants/create-merchant";

export type SignUpResult = { ok: true } | { ok: false; message: string; errors: Record<string, string> };

export async function signUp(input: { name: string; email: string; password: string; invite?: string }): Promise<SignUpResult> {
  try {
    await createMerchant({ name: input.name, email: input.email, password: input.password });
    return { ok: true };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, message: e.message, errors: Object.fromEntries(e.errors.map((f) => [f.field, f.message])) };
    throw e;
  }
}
