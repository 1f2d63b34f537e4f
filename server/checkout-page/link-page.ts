// GET and POST /pay/{slug}, GET /pay/{slug}/done: a payment link's customer pages, answered by the front without Next
// (as the checkout is), drawn by link-view.ts from what server/links says. The form is a plain HTML form: its POST
// starts the payment through payByLink and answers 303 to the checkout, or the page again with the customer's
// mistakes named beside their fields. The front limits these requests per client IP before they get here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { linkPaymentOutcome, payByLink, payPage, type PayPage } from "../links/pay";
import { checkDeclaredLength, readBody } from "../http/request-body";
import { fromOwnOrigin } from "../http/same-origin";
import { checkoutAssets } from "./assets";
import { customerDocument, sendPage } from "./document";
import type { Html } from "./html";
import { BLANK_FORM, linkDonePage, linkGonePage, payLinkPage, type PayFormAnswer } from "./link-view";

/** The form's fields; anything else a client posts is not read. */
const FIELDS = ["amount", "fullName", "email", "mobileNumber", "paymentType", "bankCode"];

async function page(res: ServerResponse, status: number, title: string, body: Html, withScript: boolean): Promise<void> {
  const { style, linkScript } = await checkoutAssets();
  sendPage(res, status, customerDocument({ title: `${title} · Owo`, style, script: withScript ? linkScript : null, body }));
}

const gone = (res: ServerResponse) => page(res, 404, "Payment link not found", linkGonePage(), false);

/** The link as a customer may see it, or null when there is none to see (unknown, switched off, a mistyped slug). */
async function readLink(slug: string): Promise<PayPage | null> {
  try {
    // Slugs are short; a long one names no link, and is not worth a query.
    return slug.length > 64 ? null : await payPage(slug);
  } catch (e) {
    if (e instanceof ApiError && e.code === "S404") return null;
    throw e;
  }
}

async function showLink(res: ServerResponse, slug: string, status: number, answer: PayFormAnswer): Promise<void> {
  const link = await readLink(slug);
  if (!link) return gone(res);
  return page(res, status, `${link.title} · ${link.merchantName}`, payLinkPage(link, answer), link.state === "accepting");
}

/**
 * The check Next made of its server actions, kept for the plain form: a browser names the page a POST comes from
 * (Origin, else Sec-Fetch-Site), and another site's page is refused. One that names neither (an old browser) is let
 * through as Next let it: the form carries no cookie, so a forged one can only start a payment its sender fills in.
 */
function sentFromOwnPage(req: IncomingMessage): boolean {
  if (req.headers.origin !== undefined) return fromOwnOrigin(req);
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin";
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  checkDeclaredLength(req);
  const form = new URLSearchParams((await readBody(req)).toString("utf8"));
  return Object.fromEntries(FIELDS.flatMap((f) => (form.has(f) ? [[f, form.get(f) ?? ""]] : [])));
}

async function pay(req: IncomingMessage, res: ServerResponse, slug: string): Promise<void> {
  const values = await readForm(req);
  if (!sentFromOwnPage(req)) {
    const message = "Cross-site request refused: send the form from this payment page.";
    return showLink(res, slug, 403, { ...BLANK_FORM, message });
  }
  try {
    const { checkoutUrl } = await payByLink(slug, values);
    res.statusCode = 303;
    // The path alone: the customer stays on the origin they posted from, which the page's CSP (form-action 'self')
    // also holds a form's redirect to.
    res.setHeader("Location", new URL(checkoutUrl).pathname);
    res.setHeader("Cache-Control", "no-store");
    res.end();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === "S404") return gone(res);
    const errors = Object.fromEntries(e.errors.map((f) => [f.field, f.message]));
    // With fields named, the errors beside them say it all; the summary is for refusals of the whole payment.
    return showLink(res, slug, e.httpStatus, { values, errors, message: e.errors.length ? null : e.message });
  }
}

export function serveLinkPage(req: IncomingMessage, res: ServerResponse, slug: string): Promise<void> {
  return req.method === "POST" ? pay(req, res, slug) : showLink(res, slug, 200, BLANK_FORM);
}

/**
 * What Owo's own record says about one payment made through this link, never the status in the query string
 * (anyone can type `?status=SUCCESSFUL`); a reference that is not one of this link's payments is not found.
 */
export async function serveLinkDone(res: ServerResponse, slug: string, query: URLSearchParams): Promise<void> {
  const references = query.getAll("paymentReference");
  const payment = references.length === 1 ? await linkPaymentOutcome(slug, references[0] ?? "") : null;
  if (!payment) return gone(res);
  return page(res, 200, "Payment status", linkDonePage(payment), false);
}
