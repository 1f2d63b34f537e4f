// The business profile: the name, logo and support contact a merchant's customers see on the checkout and receipts.
// The logo is an upload Owo keeps and serves itself, never a link to someone else's server: the pages' CSP allows
// images from Owo only, an outside address would tell a third party of every customer who opens a checkout, and what
// it shows could change after it was checked. An upload is checked once (logo-image.ts) and served as those bytes.
import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { db, write } from "../../db/client";
import { merchantLogos, merchants } from "../../db/schema";
import { ApiError, invalidFields } from "../api-error";
import { newId } from "../identifiers";
import { recordAudit } from "../team/audit";
import { clock } from "../clock";
import { readLogo } from "./logo-image";

export type BusinessProfile = { name: string; supportEmail: string | null; supportPhone: string | null; logoUrl: string | null };

/** What a customer is shown of the business beside its name: its logo and how to reach it. */
export type ForCustomers = { logoUrl: string | null; supportEmail: string | null; supportPhone: string | null };

/** The merchants columns a customer-facing read selects (joined to its payment or link), for `forCustomers`. */
export const customerColumns = () => ({
  logoId: merchants.logoId,
  supportEmail: merchants.supportEmail,
  supportPhone: merchants.supportPhone,
});

export function forCustomers(row: { logoId: string | null; supportEmail: string | null; supportPhone: string | null }): ForCustomers {
  return { logoUrl: logoUrl(row.logoId), supportEmail: row.supportEmail, supportPhone: row.supportPhone };
}

/** Where a logo is served; each upload has its own id, so the address may be cached for good. */
export const logoUrl = (logoId: string | null): string | null => (logoId ? `/logos/${logoId}` : null);

const PHONE = "must be a phone number of 7 to 15 digits, optionally after a leading +, e.g. +234 801 234 5678";
/** A field a person may leave empty: empty is null (none), anything else must be `field`. */
const optional = (field: z.ZodType<string, string>) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : v))
    .pipe(field.nullable());

export const businessProfileInput = z.object({
  name: z.string().trim().min(1, "must be 1 to 80 characters").max(80, "must be 1 to 80 characters"),
  supportEmail: optional(
    z
      .string()
      .max(254, "must be at most 254 characters")
      .pipe(z.email({ error: "must be an e-mail address, e.g. help@shop.example.ng" })),
  ),
  // Kept as typed (a person reads it on the checkout); spaces and dashes are how people group a number's digits.
  supportPhone: optional(z.string().refine((v) => /^\+?\d{7,15}$/.test(v.replace(/[\s-]/g, "")), PHONE)),
});
export type BusinessProfileInput = z.output<typeof businessProfileInput>;

export async function businessProfile(merchantId: string): Promise<BusinessProfile> {
  const [row] = await db()
    .select({ name: merchants.name, supportEmail: merchants.supportEmail, supportPhone: merchants.supportPhone, logoId: merchants.logoId })
    .from(merchants)
    .where(eq(merchants.id, merchantId));
  if (!row) throw new ApiError("S404", "Merchant not found");
  return { name: row.name, supportEmail: row.supportEmail, supportPhone: row.supportPhone, logoUrl: logoUrl(row.logoId) };
}

/** Payments already made keep what they were issued with (the sandbox account's name); pages show the new name at once. */
export async function setBusinessProfile(merchantId: string, input: BusinessProfileInput): Promise<BusinessProfile> {
  await write(async (tx) => tx.update(merchants).set(input).where(eq(merchants.id, merchantId)));
  return businessProfile(merchantId);
}

/**
 * A new logo replaces the old one, whose bytes go in the same transaction. A page door (a form's file, larger than
 * tRPC's 16 KiB bodies) calls this after asking the permission table, so the audit row is written here, with it.
 */
export async function setLogo(merchantId: string, userId: string, bytes: Buffer, now = clock.now()): Promise<BusinessProfile> {
  const image = readLogo(bytes);
  if ("field" in image) throw invalidFields([image]);
  const id = newId("logo");
  await write(async (tx) => {
    await tx
      .insert(merchantLogos)
      .values({ id, merchantId, contentType: image.contentType, bytesBase64: bytes.toString("base64"), createdAt: now });
    await tx.update(merchants).set({ logoId: id }).where(eq(merchants.id, merchantId));
    await tx.delete(merchantLogos).where(and(eq(merchantLogos.merchantId, merchantId), ne(merchantLogos.id, id)));
    const detail = { type: image.contentType, width: image.width, height: image.height, kilobytes: Math.ceil(bytes.length / 1024) };
    await recordAudit({ merchantId, userId, action: "business.setLogo", input: detail, now }, tx);
  });
  return businessProfile(merchantId);
}

export async function removeLogo(merchantId: string): Promise<BusinessProfile> {
  await write(async (tx) => {
    await tx.update(merchants).set({ logoId: null }).where(eq(merchants.id, merchantId));
    await tx.delete(merchantLogos).where(eq(merchantLogos.merchantId, merchantId));
  });
  return businessProfile(merchantId);
}

/** A logo's bytes to serve, by its id alone: logos are public (every checkout shows its merchant's). */
export async function logoBytes(id: string): Promise<{ contentType: string; bytes: Buffer } | null> {
  const [row] = await db()
    .select({ contentType: merchantLogos.contentType, bytesBase64: merchantLogos.bytesBase64 })
    .from(merchantLogos)
    .where(eq(merchantLogos.id, id));
  return row ? { contentType: row.contentType, bytes: Buffer.from(row.bytesBase64, "base64") } : null;
}
