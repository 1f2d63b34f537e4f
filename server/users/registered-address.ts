// Sign-up with an address that already has an account: the answer does not confirm the account; its holder is told by mail.
import "server-only";
import { eq } from "drizzle-orm";
import { db, write } from "../../db/client";
import { users } from "../../db/schema";
import { ApiError } from "../api-error";
import { clock } from "../clock";
import { signUpAttemptLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { settings } from "../settings";
import { normaliseEmail } from "../mail/addresses";

/** The one answer for every sign-up (own merchant or invite) whose address is taken; it never says "already exists". */
export function registeredAddressRefusal(): ApiError {
  return new ApiError(
    "S14",
    "This e-mail cannot be used to create an account. If you already have an Owo account, sign in (or reset your password); a note about this attempt has gone to the address.",
    [{ field: "email", message: "cannot be used to create an account" }],
  );
}

/**
 * Throws the neutral refusal when the address has an account, after mailing its holder (in a transaction of its
 * own, so the note survives the refusal). Called after the password is hashed, so both answers take as long.
 */
export async function refuseRegisteredAddress(email: string, now = clock.now()): Promise<void> {
  const [holder] = await db()
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  if (!holder) return;
  const base = settings().publicUrl;
  await write(async (tx) =>
    queueMail(
      tx,
      { to: holder.email, userId: holder.id },
      signUpAttemptLetter({ signInUrl: `${base}/signin`, resetUrl: `${base}/forgot-password` }),
      now,
    ),
  );
  throw registeredAddressRefusal();
}
