// The words of every mail Owo sends, as one plain-text and one HTML body; everything a person typed is escaped.
export type Letter = { kind: string; subject: string; text: string; html: string };

type Draft = {
  kind: string;
  subject: string;
  /** Plain sentences; they are escaped for HTML, never interpreted. */
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Why the reader got this mail, and what to do if it was not them. */
  footnote?: string;
};

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Subjects are one header line: no line breaks a person's input could use to add headers. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

function compose(d: Draft): Letter {
  const textParts = [...d.paragraphs];
  if (d.action) textParts.push(`${d.action.label}:\n${d.action.url}`);
  if (d.footnote) textParts.push(`--\n${d.footnote}`);
  const htmlParts = d.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (d.action) {
    const href = escapeHtml(d.action.url);
    htmlParts.push(
      `<p><a href="${href}" style="display:inline-block;padding:10px 16px;background:#0b6e4f;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(d.action.label)}</a></p>`,
      `<p style="color:#555;font-size:13px">Or open this address: ${href}</p>`,
    );
  }
  if (d.footnote) htmlParts.push(`<p style="color:#777;font-size:12px">${escapeHtml(d.footnote)}</p>`);
  return {
    kind: d.kind,
    subject: oneLine(d.subject),
    text: textParts.join("\n\n") + "\n",
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${htmlParts.join("\n")}</body></html>`,
  };
}

export function inviteLetter(p: { merchantName: string; role: string; invitedBy: string; url: string; expiresAt: string }): Letter {
  return compose({
    kind: "invite",
    subject: `You are invited to ${p.merchantName} on Owo`,
    paragraphs: [
      `${p.invitedBy} invited you to join ${p.merchantName}'s team on Owo as ${p.role}.`,
      `The link works once, until ${p.expiresAt}.`,
    ],
    action: { label: "Accept the invite", url: p.url },
    footnote: "If you did not expect this invite, ignore this mail; nothing happens until the link is used.",
  });
}

/** At sign-up: welcome, and (for a person who signed up themselves) the link that confirms the address. */
export function welcomeLetter(p: { merchantName: string; dashboardUrl: string; verifyUrl: string | null }): Letter {
  const opening = `${p.merchantName} is set up on Owo in test mode, with sandbox keys: nothing real moves until you go live.`;
  if (!p.verifyUrl) {
    return compose({
      kind: "welcome",
      subject: `Welcome to Owo, ${p.merchantName}`,
      paragraphs: [opening, "Try a USSD or transfer payment from the dashboard, then follow it in Payments."],
      action: { label: "Open the dashboard", url: p.dashboardUrl },
    });
  }
  return compose({
    kind: "verify_email",
    subject: `Welcome to Owo, ${p.merchantName}: confirm your e-mail`,
    paragraphs: [
      opening,
      "Confirm this is your address. Until you do, you can sign in and try payments, but not invite your team, connect a bank-side provider or go live.",
      `The link works once, for ${VERIFY_DAYS} days.`,
    ],
    action: { label: "Confirm my e-mail", url: p.verifyUrl },
    footnote: "If you did not sign up for Owo, ignore this mail.",
  });
}

export const VERIFY_DAYS = 3;

export function verifyEmailLetter(p: { verifyUrl: string }): Letter {
  return compose({
    kind: "verify_email",
    subject: "Confirm your e-mail for Owo",
    paragraphs: [
      "Confirm this is your address to invite your team, connect bank-side providers and go live on Owo.",
      `The link works once, for ${VERIFY_DAYS} days.`,
    ],
    action: { label: "Confirm my e-mail", url: p.verifyUrl },
    footnote: "If you did not ask for this, ignore this mail.",
  });
}

export function resetLetter(p: { resetUrl: string; minutes: number }): Letter {
  return compose({
    kind: "reset_password",
    subject: "Reset your Owo password",
    paragraphs: [
      "Someone (we hope you) asked to reset the password of your Owo account.",
      `The link works once, for ${p.minutes} minutes. Setting a new password signs you out everywhere.`,
    ],
    action: { label: "Choose a new password", url: p.resetUrl },
    footnote: "If you did not ask for this, ignore this mail: your password stays as it is.",
  });
}

/** Where and how a change was made, for the notices a person must see on every sign-in and security change. */
export type Circumstances = { at: string; ip: string | null; device: string | null; by?: string | null };

/** Who made the change when Owo knows (a signed-in person, the operator's CLI), and from where when it knows that. */
function whereLine(c: Circumstances): string {
  const from = [c.ip, c.device].filter(Boolean).join(", ");
  return `When: ${c.at}.${c.by ? ` By: ${c.by}.` : ""}${from ? ` From: ${from}.` : ""}`;
}

export function newDeviceLetter(p: Circumstances & { securityUrl: string }): Letter {
  return compose({
    kind: "new_device",
    subject: "New sign-in to your Owo account",
    paragraphs: ["Your Owo account was just signed in to from a browser it had not seen before.", whereLine(p)],
    action: { label: "Review your sessions", url: p.securityUrl },
    footnote:
      "If this was not you, reset your password now and turn on two-factor sign-in: whoever signed in can see payments and may move money.",
  });
}

/** Password, two-factor or key changes: told every time, to the person (or the owners) concerned. */
export function securityNoticeLetter(p: Circumstances & { what: string; securityUrl: string }): Letter {
  return compose({
    kind: "security_notice",
    subject: `Owo security notice: ${p.what}`,
    paragraphs: [`${p.what}.`, whereLine(p)],
    action: { label: "Review your account", url: p.securityUrl },
    footnote: "If this was not you or your team, reset your password and tell your team's owner at once.",
  });
}

/** To the holder of an address someone tried to sign up (or join a team) with: sign-up itself does not say the account exists. */
export function signUpAttemptLetter(p: { signInUrl: string; resetUrl: string }): Letter {
  return compose({
    kind: "sign_up_attempt",
    subject: "Someone tried to create an Owo account with your address",
    paragraphs: [
      "Someone (perhaps you) tried to create a new Owo account with this e-mail address, which already has one. Nothing was created.",
      `If it was you, sign in instead: ${p.signInUrl}`,
    ],
    action: { label: "Forgot your password?", url: p.resetUrl },
    footnote: "If it was not you, you need do nothing: your account is unchanged.",
  });
}
