// Payment links: created by the merchant, listed with what they collected, deactivated (never deleted).
import { randomInt } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { db, write, type Tx } from "../../db/client";
import { merchants, paymentLinks, payments } from "../../db/schema";
import { ApiError } from "../api-error";
import { newId } from "../identifiers";
import { PAYMENT_TYPES, type PaymentType } from "../payments/initiate-schema";
import { formatKobo } from "../money";
import { OPEN_STATUSES } from "../payments/status";
import type { NewLink } from "./link-schema";
import { fallbackUrls, linkQrSvg, linkUrl } from "./share";
import { clock } from "../clock";
import type { Scope } from "../merchants/scope";

export type LinkRow = typeof paymentLinks.$inferSelect;

/** Whether a link takes payments now, and if not, why. */
export type LinkState = "accepting" | "inactive" | "used" | "busy";

export type LinkView = {
  id: string;
  slug: string;
  url: string;
  title: string;
  description: string;
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  channels: PaymentType[];
  singleUse: boolean;
  active: boolean;
  state: LinkState;
  callbackUrl: string;
  redirectUrl: string;
  createdAt: string;
  successfulCount: number;
  /** Sum of what SUCCESSFUL payments brought in (amountPaid: an overpayment counts in full). */
  collected: string;
};

// Lower-case letters and digits only: slugs are read aloud and typed from printed QR codes.
const SLUG_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

async function newSlug(tx: Tx): Promise<string> {
  for (;;) {
    const slug = Array.from({ length: 10 }, () => SLUG_ALPHABET[randomInt(SLUG_ALPHABET.length)]).join("");
    if (!(await tx.select({ id: paymentLinks.id }).from(paymentLinks).where(eq(paymentLinks.slug, slug)))[0]) return slug;
  }
}

export function linkChannels(link: LinkRow): PaymentType[] {
  const listed = link.channels.split(",");
  return PAYMENT_TYPES.filter((c) => listed.includes(c));
}

/**
 * A single-use link takes one payment attempt at a time and closes for good after its first
 * SUCCESSFUL payment. Closing on the first initiation instead would kill the link whenever a
 * customer abandons a dial code; allowing parallel attempts could charge the customer twice.
 * So while an attempt is open (and not past its expiry) the link is "busy"; if it fails or
 * expires, the link opens again.
 */
export async function linkState(tx: Pick<Tx, "select">, link: LinkRow, now: number): Promise<LinkState> {
  if (!link.active) return "inactive";
  if (!link.singleUse) return "accepting";
  const attempts = await tx
    .select({ status: payments.status, expiresAt: payments.expiresAt })
    .from(payments)
    .where(and(eq(payments.linkId, link.id), sql`${payments.status} in ('SUCCESSFUL', 'PENDING', 'PARTIALLY_PAID')`));
  if (attempts.some((a) => a.status === "SUCCESSFUL")) return "used";
  if (attempts.some((a) => OPEN_STATUSES.includes(a.status) && a.expiresAt > now)) return "busy";
  return "accepting";
}

function view(link: LinkRow, state: LinkState, stats: { count: number; total: number } | undefined): LinkView {
  const amount = (k: number | null) => (k === null ? null : formatKobo(k));
  return {
    id: link.id,
    slug: link.slug,
    url: linkUrl(link.slug),
    title: link.title,
    description: link.description,
    amount: amount(link.amountKobo),
    minAmount: amount(link.minKobo),
    maxAmount: amount(link.maxKobo),
    channels: linkChannels(link),
    singleUse: link.singleUse,
    active: link.active,
    state,
    callbackUrl: link.callbackUrl,
    redirectUrl: link.redirectUrl,
    createdAt: new Date(link.createdAt).toISOString(),
    successfulCount: stats?.count ?? 0,
    collected: formatKobo(stats?.total ?? 0),
  };
}

async function successfulStats(linkIds: string[]): Promise<Map<string, { count: number; total: number }>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db()
    .select({
      linkId: payments.linkId,
      count: sql<number>`count(*)`.mapWith(Number),
      total: sql<number>`coalesce(sum(${payments.amountPaidKobo}), 0)`.mapWith(Number),
    })
    .from(payments)
    .where(and(inArray(payments.linkId, linkIds), eq(payments.status, "SUCCESSFUL")))
    .groupBy(payments.linkId);
  return new Map(rows.map((r) => [r.linkId ?? "", { count: r.count, total: r.total }]));
}

/** URLs missing from the request come from the merchant's defaults, else from pages Owo serves itself. */
export async function createLink({ merchantId, mode }: Scope, input: NewLink, now = clock.now()): Promise<LinkView & { qrSvg: string }> {
  const link = await write(async (tx) => {
    const [merchant] = await tx
      .select({ callbackUrl: merchants.defaultCallbackUrl, redirectUrl: merchants.defaultRedirectUrl })
      .from(merchants)
      .where(eq(merchants.id, merchantId));
    if (!merchant) throw new ApiError("S404", "Merchant not found");
    const slug = await newSlug(tx);
    const fallback = fallbackUrls(slug);
    const [row] = await tx
      .insert(paymentLinks)
      .values({
        id: newId("lnk"),
        merchantId,
        mode,
        slug,
        title: input.title,
        description: input.description,
        amountKobo: input.amountKobo,
        minKobo: input.minKobo,
        maxKobo: input.maxKobo,
        channels: input.channels.join(","),
        singleUse: input.singleUse,
        active: true,
        callbackUrl: input.callbackUrl ?? merchant.callbackUrl ?? fallback.callbackUrl,
        redirectUrl: input.redirectUrl ?? merchant.redirectUrl ?? fallback.redirectUrl,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error("the link's insert returned no row");
    return view(row, "accepting", undefined);
  });
  // Shown at once beside the new link: the page promises its QR code.
  return { ...link, qrSvg: await linkQrSvg(link.slug) };
}

export async function listLinks({ merchantId, mode }: Scope, now = clock.now()): Promise<LinkView[]> {
  const rows = await db()
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.merchantId, merchantId), eq(paymentLinks.mode, mode)))
    .orderBy(desc(paymentLinks.createdAt))
    .limit(500);
  const stats = await successfulStats(rows.map((r) => r.id));
  return Promise.all(rows.map(async (r) => view(r, await linkState(db(), r, now), stats.get(r.id))));
}

async function ownLink({ merchantId, mode }: Scope, id: string): Promise<LinkRow> {
  const [row] = await db()
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, id), eq(paymentLinks.merchantId, merchantId), eq(paymentLinks.mode, mode)));
  if (!row) throw new ApiError("S404", "No such payment link");
  return row;
}

/** One link with its QR code and its latest payments, for the link's dashboard page. */
export async function linkDetail({ merchantId, mode }: Scope, id: string, now = clock.now()) {
  const row = await ownLink({ merchantId, mode }, id);
  const recent = await db()
    .select({
      paymentReference: payments.paymentReference,
      paymentType: payments.paymentType,
      status: payments.status,
      amountKobo: payments.amountKobo,
      amountPaidKobo: payments.amountPaidKobo,
      fullName: payments.fullName,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(eq(payments.linkId, id))
    .orderBy(desc(payments.createdAt))
    .limit(25);
  return {
    link: view(row, await linkState(db(), row, now), (await successfulStats([id])).get(id)),
    qrSvg: await linkQrSvg(row.slug),
    payments: recent.map((p) => ({
      paymentReference: p.paymentReference,
      paymentType: p.paymentType,
      status: p.status,
      fullName: p.fullName,
      amount: formatKobo(p.amountKobo),
      amountPaid: formatKobo(p.amountPaidKobo),
      createdAt: new Date(p.createdAt).toISOString(),
    })),
  };
}

/** Links are never deleted: payments point at them. Deactivating stops new payments at once. */
export async function setLinkActive({ merchantId, mode }: Scope, id: string, active: boolean, now = clock.now()): Promise<LinkView> {
  await ownLink({ merchantId, mode }, id);
  const row = await write(async (tx) => (await tx.update(paymentLinks).set({ active }).where(eq(paymentLinks.id, id)).returning())[0]);
  if (!row) throw new ApiError("S404", "No such payment link");
  return view(row, await linkState(db(), row, now), (await successfulStats([id])).get(id));
}
