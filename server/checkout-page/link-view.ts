// A payment link's pages as HTML, drawn on the server from what server/links says: the form a customer fills in
// (a plain form POST, so it works without a script), the link's used or busy state, the page after paying, and the
// page of a link that is gone. Same words as the Next pages they replaced.
import { lagosDateTime, naira } from "../../app/payment-display";
import type { PaymentStatus } from "../../db/schema";
import type { LinkPaymentOutcome, PayPage } from "../links/pay";
import type { PaymentType } from "../payments/initiate-schema";
import { businessMark, supportContact } from "./business";
import { html, type Html } from "./html";

/** What the customer typed, sent back with what was wrong with it: field errors by name, or one message. */
export type PayFormAnswer = { values: Record<string, string>; errors: Record<string, string>; message: string | null };

export const BLANK_FORM: PayFormAnswer = { values: {}, errors: {}, message: null };

const LABELS: Record<string, string> = {
  fullName: "Full name",
  email: "E-mail",
  mobileNumber: "Phone number",
  amount: "Amount",
  paymentType: "Payment method",
  bankCode: "Your bank",
};

function fieldError(name: string, { errors }: PayFormAnswer): Html | null {
  const error = errors[name];
  return error ? html`<span class="field-error" id="${name}-error">${LABELS[name] ?? name} ${error}</span>` : null;
}

type Input = { type?: string; inputmode?: string; autocomplete: string; placeholder?: string; maxlength?: number };

function field(name: string, label: string, input: Input, answer: PayFormAnswer): Html {
  const invalid = Boolean(answer.errors[name]);
  return html`<label>
    ${label}
    <input
      name="${name}"
      type="${input.type ?? "text"}"
      required
      value="${answer.values[name] ?? ""}"
      autocomplete="${input.autocomplete}"
      ${input.inputmode && html`inputmode="${input.inputmode}"`}
      ${input.placeholder && html`placeholder="${input.placeholder}"`}
      ${input.maxlength && html`maxlength="${input.maxlength}"`}
      aria-invalid="${String(invalid)}"
      ${invalid && html`aria-describedby="${name}-error"`}
    />
    ${fieldError(name, answer)}
  </label>`;
}

const CHANNEL_WORDS: Record<PaymentType, [string, string]> = {
  TRANSFER: ["Bank transfer", "From any bank app"],
  USSD: ["USSD", "Dial a code, no data"],
};

function payForm(link: PayPage, answer: PayFormAnswer): Html {
  const sent = answer.values.paymentType as PaymentType | undefined;
  const chosen = sent && link.channels.includes(sent) ? sent : link.channels.length === 1 ? link.channels[0] : "TRANSFER";
  const range = !link.amount && link.minAmount && link.maxAmount ? `${link.minAmount} to ${link.maxAmount}` : null;
  const bank = answer.values.bankCode ?? "";
  return html`<form method="post" action="/pay/${link.slug}" class="stack pl-form" novalidate data-pay-form>
    ${range && field("amount", "Amount (₦)", { inputmode: "decimal", placeholder: range, autocomplete: "transaction-amount" }, answer)}
    ${field("fullName", "Full name", { autocomplete: "name", maxlength: 100 }, answer)}
    ${field("email", "E-mail", { type: "email", autocomplete: "email", inputmode: "email" }, answer)}
    ${field("mobileNumber", "Phone number", { type: "tel", autocomplete: "tel", inputmode: "tel", placeholder: "08012345678" }, answer)}
    <fieldset class="pl-channels">
      <legend>How would you like to pay?</legend>
      ${link.channels.map(
        (c) =>
          html`<label class="pl-channel">
            <input type="radio" name="paymentType" value="${c}" ${c === chosen && html`checked`} />
            <span>${CHANNEL_WORDS[c][0]}<span class="pl-channel-hint">${CHANNEL_WORDS[c][1]}</span></span>
          </label>`,
      )}
    </fieldset>
    ${fieldError("paymentType", answer)}
    ${
      link.channels.includes("USSD") &&
      html`<label class="pl-bank">
        Your bank
        <select name="bankCode" required aria-invalid="${String(Boolean(answer.errors.bankCode))}">
          <option value="" disabled ${bank === "" && html`selected`}>Choose your bank</option>
          ${link.banks.map((b) => html`<option value="${b.bankCode}" ${b.bankCode === bank && html`selected`}>${b.bankName}</option>`)}
        </select>
        ${fieldError("bankCode", answer)}
      </label>`
    }
    ${answer.message && html`<p role="alert" class="form-error">${answer.message}</p>`}
    <button type="submit" class="pl-pay">${link.amount ? `Pay ${naira(link.amount)}` : "Continue to pay"}</button>
  </form>`;
}

const USED = "This payment link has already been paid. Contact the merchant if you believe this is wrong.";
const BUSY = "Someone is paying this link right now. If that payment is not completed, the link opens again in a few minutes.";

/** The link's page: what is being paid for and to whom, then the form, or why it cannot be paid now. */
export function payLinkPage(link: PayPage, answer: PayFormAnswer): Html {
  return html`<main class="pl-page">
    <div class="auth-card pl-card">
      ${link.mode === "test" && html`<p class="pl-test">Test mode: no real money moves.</p>`}
      ${businessMark(link.merchantName, link.business, "pl-merchant")}
      <h1 class="pl-title">${link.title}</h1>
      ${link.description && html`<p class="pl-description">${link.description}</p>`}
      ${
        link.amount
          ? html`<p class="pl-amount" data-testid="link-amount">${naira(link.amount)}</p>`
          : link.minAmount &&
            link.maxAmount &&
            html`<p class="pl-hint">Enter any amount from ${naira(link.minAmount)} to ${naira(link.maxAmount)}.</p>`
      }
      ${
        link.state === "accepting"
          ? payForm(link, answer)
          : html`<p role="status" class="pl-notice">${link.state === "used" ? USED : BUSY}</p>`
      }
      ${supportContact(link.business)}
    </div>
    <p class="pl-footer">Secured by <strong>Owo</strong> · USSD and bank transfer</p>
  </main>`;
}

/** A link that is unknown or switched off, and a done page for no payment of the link: both look gone. */
export function linkGonePage(): Html {
  return html`<main class="pl-page">
    <div class="auth-card pl-card pl-notice">
      <p class="pl-sign" aria-hidden="true">?</p>
      <h1>This payment link is not available</h1>
      <p class="muted">It may have been switched off by the merchant, or the address may be mistyped. Ask the merchant for a new link.</p>
    </div>
    <p class="pl-footer">Secured by <strong>Owo</strong></p>
  </main>`;
}

type Outcome = { sign: string; tone: "pl-good" | "pl-bad" | "pl-wait"; heading: string; text: string };

const WAITING: Outcome = {
  sign: "…",
  tone: "pl-wait",
  heading: "Payment not finished yet",
  text: "If you have paid, the merchant will be told as soon as your bank confirms it.",
};
const OUTCOME: Partial<Record<PaymentStatus, Outcome>> = {
  SUCCESSFUL: {
    sign: "✓",
    tone: "pl-good",
    heading: "Payment received",
    text: "Thank you. The merchant has been told; keep the reference below for your records.",
  },
  FAILED: {
    sign: "!",
    tone: "pl-bad",
    heading: "Payment failed",
    text: "Your bank declined the payment and no money was taken. You can try again.",
  },
  EXPIRED: {
    sign: "!",
    tone: "pl-bad",
    heading: "Payment timed out",
    text: "The time to pay ran out. If money left your account it will be refunded; you can start again.",
  },
  CANCELLED: {
    sign: "!",
    tone: "pl-bad",
    heading: "Payment cancelled",
    text: "The merchant cancelled this payment. If money left your account it will be refunded.",
  },
};

/** A term and its value side by side, no space between: two parts, so the formatter cannot put a line between them. */
const fact = ([term, value]: [string, string]) => [
  html`<dt>${term}</dt>`,
  html`<dd${term === "Reference" && html` class="mono"`}>${value}</dd>`,
];

/** Where a link's customers land when no redirect URL is named: what Owo's own record says of that payment. */
export function linkDonePage(payment: LinkPaymentOutcome): Html {
  const outcome = OUTCOME[payment.status] ?? WAITING;
  const paid = payment.status === "SUCCESSFUL";
  // The same facts as the checkout's receipt: what was paid, to whom, when, and the reference to keep. Written with no
  // space between them, as the receipt reads them out: "Paid₦1,000.00To…".
  const facts: [string, string][] = [
    [paid ? "Paid" : "Amount", naira(paid ? payment.amountPaid : payment.amount)],
    ["To", payment.merchantName],
    ["Reference", payment.paymentReference],
    ...(payment.paidAt ? [["Date", lagosDateTime(payment.paidAt)] as [string, string]] : []),
  ];
  return html`<main class="pl-page">
    <div class="auth-card pl-card pl-notice">
      <p class="pl-sign ${outcome.tone}" aria-hidden="true">${outcome.sign}</p>
      ${businessMark(payment.merchantName, payment.business, "pl-done-mark")}
      <h1>${outcome.heading}</h1>
      <p class="pl-merchant">${payment.title}</p>
      <p class="muted">${outcome.text}</p>
      <dl class="facts" data-testid="done-facts">${facts.map(fact)}</dl>
      ${!paid && html`<a href="/pay/${payment.slug}">Back to the payment page</a>`} ${supportContact(payment.business)}
    </div>
  </main>`;
}
