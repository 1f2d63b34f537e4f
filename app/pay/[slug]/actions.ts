"use server";
import { ApiError } from "@/server/api-error";
import { payByLink } from "@/server/links/pay";

export type PayResult = { ok: true; checkoutUrl: string } | { ok: false; message: string; errors: Record<string, string> };

/** The pay form's door: the front limits POST /pay/<slug> per client IP before this runs. */
export async function payLink(slug: string, form: Record<string, string>): Promise<PayResult> {
  try {
    const { checkoutUrl } = await payByLink(slug, form);
    return { ok: true, checkoutUrl };
  } catch (e) {
    if (e instanceof ApiError)
      return { ok: false, message: e.message, errors: Object.fromEntries(e.errors.map((f) => [f.field, f.message])) };
    throw e;
  }
}
