"use server";
import { ApiError } from "@/server/api-error";
import { payByLink } from "@/server/links/pay";
import { actionArguments, typed, UNREADABLE } from "@/server/http/action-arguments";
import { z } from "zod";

const payInput = z.tuple([typed(200), z.record(z.string().max(100), typed())]);

export type PayResult = { ok: true; checkoutUrl: string } | { ok: false; message: string; errors: Record<string, string> };

/** The pay form's door: the front limits POST /pay/<slug> per client IP before this runs. */
export async function payLink(rawSlug: string, rawForm: Record<string, string>): Promise<PayResult> {
  const args = actionArguments(payInput, [rawSlug, rawForm]);
  if (!args) return { ok: false, message: UNREADABLE, errors: {} };
  const [slug, form] = args;
  try {
    const { checkoutUrl } = await payByLink(slug, form);
    return { ok: true, checkoutUrl };
  } catch (e) {
    if (e instanceof ApiError)
      return { ok: false, message: e.message, errors: Object.fromEntries(e.errors.map((f) => [f.field, f.message])) };
    throw e;
  }
}
