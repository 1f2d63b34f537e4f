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

export function welcomeLetter(p: { merchantName: string; url: string }): Letter {
  return compose({
    kind: "welcome",
    subject: `Welcome to Owo, ${p.merchantName}`,
    paragraphs: [
      `${p.merchantName} is set up on Owo in test mode, with sandbox keys: nothing real moves until you go live.`,
      "Try a USSD or transfer payment from the dashboard, then follow it in Payments.",
    ],
    action: { label: "Open the dashboard", url: p.url },
  });
}
