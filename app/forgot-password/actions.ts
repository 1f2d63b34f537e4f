"use server";
import { requestPasswordReset } from "@/server/users/password-reset";
import { actionArguments, typed } from "@/server/http/action-arguments";

/** Always the same answer, whether or not the address has an account. */
export async function askForReset(raw: string): Promise<void> {
  const email = actionArguments(typed(254), raw);
  if (email !== null) await requestPasswordReset(email);
}
