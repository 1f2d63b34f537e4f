// Who the customer pays, as the merchant's business profile presents it, on every page a customer sees without Next:
// the checkout, a payment link's form and its done page (the dashboard's preview draws the same with
// app/business-identity.tsx).
import type { ForCustomers } from "../merchants/business-profile";
import { html, type Html } from "./html";

/** The logo beside the name, never instead of it: a customer reads who they pay. */
export function businessMark(name: string, { logoUrl }: ForCustomers, className: string): Html {
  return html`<div class="mark ${className}" data-testid="business-mark">
    ${logoUrl && html`<img src="${logoUrl}" alt="" class="logo" height="40" />`}<span>${name}</span>
  </div>`;
}

/** How to reach the merchant, as its business profile publishes it; a phone's tel: link keeps only digits and +. */
export function supportContact({ supportEmail, supportPhone }: ForCustomers): Html | null {
  if (!supportEmail && !supportPhone) return null;
  return html`<p class="support" data-testid="support-contact">
    Questions about this payment?
    ${supportEmail && html`<a href="mailto:${supportEmail}">${supportEmail}</a>`}${supportEmail && supportPhone && " · "}${supportPhone && html`<a href="tel:${supportPhone.replace(/[^\d+]/g, "")}">${supportPhone}</a>`}
  </p>`;
}
