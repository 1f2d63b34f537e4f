"use server";
import { requestPasswordReset } from "@/server/users/password-reset";

/** Always the same answer, whether or not the address has an account. */
export async function askForReset(email: string): Promise<void> {
  if (typeof email === "string" && email.length <= 254) await requestPasswordReset(email);
}
