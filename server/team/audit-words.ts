// The audit log in words: each entry one sentence a person understands, from its action and the redacted input kept
// with it. No procedure names and no JSON reach the page; an action without words of its own still reads as a sentence.
import { displayNaira, parseAmount } from "../money";

type Detail = Record<string, unknown>;
type Say = (d: Detail, target: string | null) => string;

const text = (v: unknown): string => (typeof v === "string" || typeof v === "number" ? String(v) : "");
const quoted = (v: unknown): string => (text(v) ? ` “${text(v)}”` : "");
const naira = (v: unknown): string => {
  const kobo = parseAmount(text(v));
  return kobo === null ? "" : displayNaira(kobo);
};
const payment = (d: Detail, target: string | null) => `payment ${text(d.paymentReference) || target || ""}`.trim();
const role = (v: unknown) => (text(v) ? `the ${text(v)} role` : "a role");
const onOff = (v: unknown, on: string, off: string) => (v === true ? on : v === false ? off : `${on} or ${off}`);

const SENTENCES: Record<string, Say> = {
  initiatePayment: (d) =>
    `Created ${text(d.paymentType) === "USSD" ? "a USSD" : "a bank transfer"} payment${naira(d.amount) ? ` of ${naira(d.amount)}` : ""}${
      text(d.fullName) ? ` for ${text(d.fullName)}` : ""
    }${text(d.paymentReference) ? ` (${text(d.paymentReference)})` : ""}.`,
  standardCheckout: (d) =>
    `Opened a checkout for the customer to choose how to pay${naira(d.amount) ? ` ${naira(d.amount)}` : ""}${
      text(d.paymentReference) ? ` (${text(d.paymentReference)})` : ""
    }.`,
  "payments.cancel": (d, t) => `Cancelled ${payment(d, t)}.`,
  "payments.refund": (d, t) =>
    `Refunded ${naira(d.amount) || "the rest"} of ${payment(d, t)}${text(d.reason) ? `, because: ${text(d.reason)}` : ""}.`,
  "payments.refundAccount": (d, t) => `Gave the customer's bank account for a refund of ${payment(d, t)}.`,
  "payments.cancelRefund": (d, t) => `Gave up a refund of ${payment(d, t)}.`,
  "sandbox.simulate": (d, t) =>
    `Had the sandbox bank ${text(d.outcome) === "decline" ? "decline" : `pay${naira(d.amount) ? ` ${naira(d.amount)}` : ""}`} for ${payment(d, t)} (test mode).`,
  "sandbox.settle": () => "Had the sandbox bank settle what it holds (test mode).",
  "links.create": (d) => `Created the payment link${quoted(d.title)}${naira(d.amount) ? ` for ${naira(d.amount)}` : ""}.`,
  "links.setActive": (d) => `${onOff(d.active, "Switched on", "Switched off")} a payment link.`,
  "links.setDefaults": () => "Changed the default callback and redirect URLs.",
  "business.setProfile": (d) => `Changed the business profile${text(d.name).trim() ? ` (name${quoted(text(d.name).trim())})` : ""}.`,
  "business.setLogo": (d) => `Uploaded a new logo${text(d.width) ? ` (${text(d.width)} × ${text(d.height)} pixels)` : ""}.`,
  "business.removeLogo": () => "Removed the logo.",
  "keys.roll": () => "Rolled the secret API key.",
  "keys.createLive": () => "Created the live API keys.",
  "providers.connect": (d) => `Connected ${text(d.provider) ? capitalised(text(d.provider)) : "a provider"} for live payments.`,
  "providers.test": () => "Tested a provider's connection.",
  "providers.setRefunds": (d) => `${onOff(d.enabled, "Turned on", "Turned off")} refunds through a provider.`,
  "providers.setForwardUrl": (d) =>
    text(d.forwardUrl) ? `Set a provider's forwarding URL to ${text(d.forwardUrl)}.` : "Stopped forwarding a provider's other notices.",
  "providers.setFees": () => "Changed the fee schedule agreed with a provider.",
  "providers.disconnect": () => "Disconnected a provider.",
  "reconciliation.resolve": (d) =>
    `Resolved a reconciliation exception${text(d.kind) ? ` (${text(d.kind).replaceAll("_", " ")})` : ""}${d.writeOff ? " and wrote off what was left" : ""}.`,
  "reconciliation.previewStatement": (d) =>
    `Previewed a bank statement${text(d.accountNumber) ? ` for account ${text(d.accountNumber)}` : ""}, importing nothing.`,
  "reconciliation.importStatement": (d) =>
    `Imported a bank statement${text(d.accountNumber) ? ` for account ${text(d.accountNumber)}` : ""}.`,
  "team.invite": (d) => `Created an invite link for ${role(d.role)}.`,
  "team.withdrawInvite": () => "Withdrew an invite.",
  "team.changeRole": (d) => `Gave a member ${role(d.role)}.`,
  "team.remove": () => "Removed a member from the team.",
  "team.acceptInvite": (d) => `Joined the team through an invite, with ${role(d.role)}.`,
  "team.requireTwoFactor": (d) => `${onOff(d.required, "Required", "Stopped requiring")} two-factor sign-in for the team.`,
  "account.verifyEmail": () => "Confirmed their e-mail address.",
  "account.resetPassword": (d) => `Reset their password with a mailed link${text(d.ip) ? ` from ${text(d.ip)}` : ""}.`,
  "account.signInNewDevice": (d) => `Signed in from a new browser${text(d.ip) ? ` at ${text(d.ip)}` : ""}.`,
  "account.enableTwoFactor": () => "Turned on two-factor sign-in.",
  "account.disableTwoFactor": () => "Turned off two-factor sign-in.",
  "account.renewRecoveryCodes": () => "Made new two-factor recovery codes.",
  "account.useRecoveryCode": () => "Signed in with a recovery code.",
  "account.endSession": () => "Signed out one of their sessions.",
  "account.endOtherSessions": (d) => `Signed out everywhere else${typeof d.ended === "number" ? ` (${d.ended} sessions)` : ""}.`,
  "webhooks.endpoints.add": (d) => `Added a webhook endpoint${text(d.url) ? ` at ${text(d.url)}` : ""}.`,
  "webhooks.endpoints.disable": () => "Disabled a webhook endpoint.",
  "webhooks.endpoints.enable": () => "Enabled a webhook endpoint.",
  "webhooks.endpoints.delete": () => "Deleted a webhook endpoint.",
  "webhooks.secret.reveal": () => "Revealed the webhook signing secret.",
  "webhooks.secret.roll": () => "Rolled the webhook signing secret.",
  "webhooks.deliveries.resend": () => "Sent a callback again.",
};

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Where an action without words of its own happened, named as the dashboard names its pages. */
const AREAS: Record<string, string> = {
  payments: "payments",
  sandbox: "the sandbox bank",
  links: "payment links",
  keys: "API keys",
  providers: "providers",
  reconciliation: "reconciliation",
  settlements: "settlements",
  team: "the team",
  account: "their account",
  webhooks: "webhooks",
  mail: "mail",
  business: "the business profile",
};

/** One sentence for an audit entry: what the person did, with what the redacted input still tells. */
export function auditSentence(action: string, target: string | null, detail: unknown): string {
  const d = typeof detail === "object" && detail !== null && !Array.isArray(detail) ? (detail as Detail) : {};
  const say = SENTENCES[action];
  if (say) return say(d, target);
  return `Made a change to ${AREAS[action.split(".")[0] ?? ""] ?? "the merchant's settings"}.`;
}
