// The customer's side of a payment as HTML: what to dial or where to transfer, the time left, then a receipt and the
// way back to the shop. The same function draws the first page on the server and every later state in the browser
// (browser.ts), so the page needs no framework on the phone.
import { lagosDateTime, naira, timeLeft } from "../../app/payment-display";
import type { CheckoutStatus } from "../payments/checkout";
import type { LateMoney } from "../payments/state";
import { businessMark, supportContact } from "./business";
import { html, type Html } from "./html";

/** Seconds the receipt waits before taking the customer back to the shop. */
export const RETURN_AFTER_S = 5;

export function goingBackText(left: number): string {
  return `Taking you back in ${Math.max(0, left)} s…`;
}

function copyButton(value: string, label: string, className: string): Html {
  return html`<button type="button" class="${className}" data-copy="${value}" aria-label="${label} ${value}">
    <span aria-live="polite">${label}</span>
  </button>`;
}

function chooser(offer: NonNullable<CheckoutStatus["offer"]>): Html {
  const ussd =
    offer.ussdBanks.length > 0 &&
    html`<form class="co-option" data-choose="USSD">
      <label for="ussd-bank" class="co-option-title">USSD: dial a code from your bank&#39;s phone number</label>
      <select id="ussd-bank" name="bankCode" required>
        <option value="">Choose your bank</option>
        ${offer.ussdBanks.map((b) => html`<option value="${b.bankCode}">${b.bankName}</option>`)}
      </select>
      <button type="submit" class="co-wide" disabled>Pay with USSD</button>
    </form>`;
  return html`<section class="co-how" aria-labelledby="choose-title">
    <h2 id="choose-title" class="co-choose-title">How would you like to pay?</h2>
    ${ussd}
    <div class="co-option">
      <p class="co-option-title">Bank transfer: from any bank app</p>
      <button type="button" class="secondary co-wide" data-choose="TRANSFER">Pay by bank transfer</button>
    </div>
    <p role="alert" class="co-problem" hidden></p>
  </section>`;
}

function howToPay(view: CheckoutStatus, issued: NonNullable<CheckoutStatus["issued"]>, qr: string | null, now: number): Html {
  const how =
    issued.paymentType === "USSD"
      ? html`<section class="co-how">
          <p>Dial this code on the phone linked to your ${issued.bankName} account, then confirm with your PIN.</p>
          <a href="${issued.telLink}" class="co-code" data-testid="checkout-dial-code">${issued.dialCode}</a>
          <div class="co-actions">
            <a href="${issued.telLink}" class="button co-wide">Dial now</a>
            ${copyButton(issued.dialCode, "Copy code", "secondary co-wide")}
          </div>
          ${qr && html`<img src="${qr}" alt="" class="co-qr" width="150" height="150" />`}
          ${qr && html`<p class="muted co-qr-note">On a computer? Scan with your phone&#39;s camera to dial.</p>`}
        </section>`
      : html`<section class="co-how">
          <p>Transfer exactly ${naira(view.amountDue)} from any bank app to:</p>
          <dl class="co-account">
            <div>
              <dt>Bank</dt>
              <dd>${issued.bankName}</dd>
            </div>
            <div>
              <dt>Account number</dt>
              <dd class="co-number">
                <span class="mono" data-testid="checkout-account-number">${issued.accountNumber}</span>
                ${copyButton(issued.accountNumber, "Copy", "secondary")}
              </dd>
            </div>
            <div>
              <dt>Account name</dt>
              <dd>${issued.accountName}</dd>
            </div>
          </dl>
          <p class="muted">
            This account is for this payment only. Money sent after it expires does not pay for it: ${view.merchantName} is told to refund
            it to you.
          </p>
        </section>`;
  return html`${how}
    <p class="co-timer">
      ${issued.paymentType === "USSD" ? "Code expires in " : "Account expires in "}<span
        class="co-clock"
        role="timer"
        aria-live="off"
        data-expires-at="${view.expiresAt}"
        >${timeLeft(view.expiresAt, now)}</span
      >
    </p>
    <p class="co-waiting" role="status"><span class="co-pulse" aria-hidden="true"></span> Waiting for your payment…</p>`;
}

const OUTCOME = {
  SUCCESSFUL: { mark: "✓", title: "Payment received", tone: "co-good" },
  FAILED: { mark: "✕", title: "Payment declined", tone: "co-bad" },
  EXPIRED: { mark: "!", title: "This payment has expired", tone: "co-neutral" },
  CANCELLED: { mark: "!", title: "The shop cancelled this payment", tone: "co-neutral" },
  PENDING: { mark: "", title: "", tone: "" },
  PARTIALLY_PAID: { mark: "", title: "", tone: "" },
} as const;

/** Late money is the customer's: say whether it is still owed to them or already back with them, and how much. */
function lateWords({ arrived, refunded, owed }: LateMoney): string {
  const came = `${naira(arrived)} arrived after the payment had ended`;
  if (refunded === "0.00") return `${came} and is due back to you.`;
  if (owed === "0.00") return `${came} and has been refunded to you.`;
  return `${came}: ${naira(refunded)} of it has been refunded to you and ${naira(owed)} is still due back.`;
}

/** An expired part payment is the customer's too: refunded, partly refunded, or still to be. */
function partWords(view: CheckoutStatus): string {
  if (view.paidBack === "0.00") return `${view.merchantName} will refund it.`;
  if (view.paidBack === view.amountPaid) return "It has been refunded to you.";
  return `${naira(view.paidBack)} of it has been refunded to you; ${view.merchantName} will refund the rest.`;
}

function receipt(view: CheckoutStatus): Html {
  const outcome = OUTCOME[view.status];
  const expired = view.somethingPaid
    ? `${naira(view.amountPaid)} arrived but not the full amount in time. ${partWords(view)}`
    : "No money was taken. Start again from the shop to get a new one.";
  return html`<section class="co-receipt" data-testid="receipt">
    <span class="co-mark ${outcome.tone}" aria-hidden="true">${outcome.mark}</span>
    <h1 class="co-receipt-title">${outcome.title}</h1>
    ${
      view.status === "SUCCESSFUL" &&
      html`<dl class="facts">
        <dt>Paid</dt>
        <dd>${naira(view.amountPaid)}</dd>
        <dt>To</dt>
        <dd>${view.merchantName}</dd>
        <dt>Reference</dt>
        <dd class="mono">${view.paymentReference}</dd>
        <dt>Date</dt>
        <dd>${lagosDateTime(view.paidAt)}</dd>
        ${
          view.paidBack !== "0.00" &&
          html`<dt>Refunded</dt>
            <dd data-testid="receipt-refunded">${naira(view.paidBack)}</dd>`
        }
      </dl>`
    }
    ${view.status === "FAILED" && html`<p>Your bank declined the debit, so no money was taken. You can try again from the shop.</p>`}
    ${view.status === "EXPIRED" && html`<p>${expired}</p>`}
    ${view.status === "CANCELLED" && html`<p>Do not pay it now. Start again from the shop if you still mean to buy.</p>`}
    ${view.late && html`<p data-testid="late-money">${lateWords(view.late)}</p>`}
  </section>`;
}

/** The card's inside for `view` at `now`; `qr` is the dial code's QR image, drawn by the server for a USSD payment. */
export function checkoutCard(view: CheckoutStatus, qr: string | null, now: number): Html {
  const { issued, offer } = view;
  const body = view.open && offer ? chooser(offer) : view.open && issued ? howToPay(view, issued, qr, now) : receipt(view);
  return html`${view.mode === "test" && html`<p class="co-test">Test payment · no real money moves</p>`}
    ${businessMark(view.merchantName, view.business, "co-merchant")}
    ${
      view.link &&
      html`<div class="co-for-what" data-testid="checkout-link">
        <p class="co-link-title">${view.link.title}</p>
        ${view.link.description && html`<p class="muted">${view.link.description}</p>`}
      </div>`
    }
    <p class="co-amount" data-testid="checkout-amount">${naira(view.open ? view.amountDue : view.amount)}</p>
    ${
      view.status === "PARTIALLY_PAID" &&
      html`<p class="co-partly" role="status">${naira(view.amountPaid)} received · ${naira(view.amountDue)} still to pay</p>`
    }
    ${body}
    ${
      view.returnUrl &&
      html`<div class="co-back">
        <a href="${view.returnUrl}" class="button co-wide">Return to ${view.merchantName}</a>
        <p class="muted" aria-live="polite" data-going-back="${view.returnUrl}">${goingBackText(RETURN_AFTER_S)}</p>
      </div>`
    }
    ${supportContact(view.business)}
    <p class="co-footer">Secured by <strong>Owo</strong> · <span class="mono">${view.linkingReference}</span></p>`;
}

/** A link that leads to no payment: said kindly, with what to do next. */
export function notFoundCard(): Html {
  return html`<p class="co-merchant">Checkout not found</p>
    <p>We could not find a payment for this link. It may have been mistyped or cut short when it was shared.</p>
    <p class="muted">Go back to the shop you were paying and start the payment again. No money has been taken by this page.</p>
    <p class="co-footer">Secured by Owo</p>`;
}
