// A new merchant arrives whole: the merchant, its owner, test keys and a test signing secret, in one transaction.
import { eq } from "drizzle-orm";
import { write } from "../../db/client";
import { memberships, merchants, users } from "../../db/schema";
import { invalidFields, type FieldError } from "../api-error";
import { issueKeyPair } from "../auth/api-keys";
import { newId } from "../identifiers";
import { issueVerificationUrl } from "../users/email-verification";
import { refuseRegisteredAddress, registeredAddressRefusal } from "../users/registered-address";
import { credentialFieldErrors, insertUser, prepareUser } from "../users/users";
import { welcomeLetter } from "../mail/letters";
import { queueMail } from "../mail/outbox";
import { settings } from "../settings";
import { createSigningSecret } from "../webhooks/signing-secrets";
import { clock } from "../clock";

/** `emailVerified`: the operator vouches for the address (CLI, seed); a person signing up confirms it by the mailed link. */
export type NewMerchant = { name: string; email: string; password: string; ownerName?: string; emailVerified?: boolean };

export function merchantFieldErrors(input: NewMerchant): FieldError[] {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) errors.push({ field: "name", message: "must be 1 to 80 characters" });
  return [...errors, ...credentialFieldErrors(input)];
}

export async function createMerchant(input: NewMerchant, now = clock.now()) {
  const errors = merchantFieldErrors(input);
  if (errors.length) throw invalidFields(errors);
  const owner = await prepareUser({ email: input.email, password: input.password, name: input.ownerName });
  await refuseRegisteredAddress(owner.email, now);
  return write(async (tx) => {
    const userId = await insertUser(tx, owner, registeredAddressRefusal, now);
    const merchantId = newId("mch");
    await tx.insert(merchants).values({ id: merchantId, name: input.name.trim(), createdAt: now });
    await tx.insert(memberships).values({ userId, merchantId, role: "owner", createdAt: now });
    const keys = await issueKeyPair(tx, merchantId, "test", now);
    const webhookSecret = await createSigningSecret(tx, merchantId, "test", now);
    if (input.emailVerified) await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, userId));
    const verifyUrl = input.emailVerified ? null : await issueVerificationUrl(tx, userId, now);
    await queueMail(
      tx,
      { to: owner.email, userId, merchantId },
      welcomeLetter({ merchantName: input.name.trim(), dashboardUrl: `${settings().publicUrl}/dashboard`, verifyUrl }),
      now,
    );
    return { merchantId, userId, publicKey: keys.publicKey, secretKey: keys.secretKey, webhookSecret };
  });
}
