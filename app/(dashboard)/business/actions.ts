"use server";
// The logo upload's door: a form's file is larger than a tRPC body may be (16 KiB), so the page posts it here. It
// signs the person in, asks the permission table as the procedures do, and hands the bytes to the core, which checks
// the image and writes the audit row in the same transaction.
import { ApiError } from "@/server/api-error";
import { assertCan } from "@/server/auth/permissions";
import { UNREADABLE } from "@/server/http/action-arguments";
import { setLogo } from "@/server/merchants/business-profile";
import { pageCaller } from "@/server/trpc/page-caller";

export type LogoAnswer = { logoUrl: string | null; error: null } | { logoUrl: null; error: string };

export async function uploadLogo(form: unknown): Promise<LogoAnswer> {
  const file = form instanceof FormData ? form.get("logo") : null;
  if (!(file instanceof File)) return { logoUrl: null, error: UNREADABLE };
  const { caller } = await pageCaller();
  if (!caller) return { logoUrl: null, error: "Your session has ended: sign in again." };
  try {
    assertCan(caller, "business.profile");
    const profile = await setLogo(caller.merchantId, caller.userId, Buffer.from(await file.arrayBuffer()));
    return { logoUrl: profile.logoUrl, error: null };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const field = e.errors[0];
    return { logoUrl: null, error: field ? `The logo ${field.message}.` : e.message };
  }
}
