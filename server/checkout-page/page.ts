// GET /checkout/{linkingReference}: the hosted checkout, answered by the front without Next. The server draws the
// page with view.ts and hands the state to one small script (assets.ts), so a customer on 3G downloads a few KB of
// JavaScript instead of React and Next's runtime; the CSP allows no inline script or style at all.
import type { ServerResponse } from "node:http";
import { ApiError } from "../api-error";
import { checkoutStatus } from "../payments/checkout";
import { dialQrCode } from "../payments/dial-code";
import { ASSET_PREFIX, checkoutAssets, type CheckoutAssets } from "./assets";
import { customerDocument, sendPage } from "./document";
import { html, Html } from "./html";
import { checkoutCard, notFoundCard } from "./view";

function documentOf(assets: CheckoutAssets, card: Html, state: string | null): string {
  const body = html`<main class="co-screen"><div class="co-card" id="checkout-card">${card}</div></main>
    ${
      state !== null &&
      html`<script type="application/json" id="checkout-state">
        ${new Html(state)}
      </script>`
    }`;
  return customerDocument({ title: "Checkout · Owo", style: assets.style, script: state === null ? null : assets.script, body });
}

export async function serveCheckoutPage(res: ServerResponse, linkingReference: string): Promise<void> {
  const assets = await checkoutAssets();
  let view;
  try {
    // The reference as the tRPC door takes it; anything else names no payment.
    if (linkingReference.length > 64) throw new ApiError("S404", "No such checkout");
    view = await checkoutStatus(linkingReference);
  } catch (err) {
    if (err instanceof ApiError && err.httpStatus === 404) return sendPage(res, 404, documentOf(assets, notFoundCard(), null));
    throw err;
  }
  const qr = view.issued?.paymentType === "USSD" && view.open ? await dialQrCode(view.issued.dialCode) : null;
  // JSON inside a script element: "<" escaped so no value can close the element.
  const state = JSON.stringify({ view, qr }).replace(/</g, "\\u003c");
  sendPage(res, 200, documentOf(assets, checkoutCard(view, qr, Date.now()), state));
}

/** The script and stylesheet by their hashed names; anything else under the prefix is not found. */
export async function serveCheckoutAsset(res: ServerResponse, path: string): Promise<boolean> {
  if (!path.startsWith(ASSET_PREFIX)) return false;
  const { script, linkScript, style } = await checkoutAssets();
  const asset = [script, linkScript, style].find((a) => a.path === path);
  if (!asset) return false;
  res.setHeader("Content-Type", asset.type);
  res.setHeader("Content-Length", asset.body.length);
  res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  res.end(asset.body);
  return true;
}
