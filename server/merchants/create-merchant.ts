// A new merchant arrives whole: the merchant, its owner, test keys and a test signing secret, in one transaction.
import { eq } from "drizzle-orm";
import { write } from "../../db/client";
import { memberships, merchants, users } from "../../db/schema";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { issueKeyPair } from "../auth/api-keys";
import { hashPassword, passwordProblem } from "../auth/passwords";
import { newId } from "../identifiers";
import { createSigningSecret } from "../webhooks/signing-secrets";

export type NewMerchant = { name: string; email: string; password: string; ownerName?: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function merchantFieldErrors(input: NewMerchant): FieldError[] {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 80) errors.push({ field: "name", message: "must be 1 to 80 characters" });
  if (!EMAIL.test(input.email) || input.email.length > 254) errors.push({ field: "email", message: "must be an e-mail address, e.g. ada@example.com" });
  const pw = passwordProblem(input.password);
  if (pw) errors.push({ field: "password", message: pw });
  return errors;
}

export async function createMerchant(input: NewMerchant, now = Date.now()) {
  const errors = merchantFieldErrors(input);
  if (errors.length) throw invalidFields(errors);
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  return write((tx) => {
    if (tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get()) {
      throw new ApiError("S14", "An account with this e-mail already exists; sign in instead", [
        { field: "email", message: "is already registered" },
      ]);
    }
    const merchantId = newId("mch");
    const userId = newId("usr");
    tx.insert(merchants).values({ id: merchantId, name: input.name.trim(), createdAt: now }).run();
    tx.insert(users).values({ id: userId, email, name: input.ownerName?.trim() || email, passwordHash, createdAt: now }).run();
    tx.insert(memberships).values({ userId, merchantId, role: "owner", createdAt: now }).run();
    const keys = issueKeyPair(tx, merchantId, "test", now);
    const webhookSecret = createSigningSecret(tx, merchantId, "test", now);
    return { merchantId, userId, publicKey: keys.publicKey, secretKey: keys.secretKey, webhookSecret };
  });
}
