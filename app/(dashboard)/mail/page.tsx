import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { lagosDateTime } from "@/app/payment-display";
import { settings } from "@/server/settings";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import styles from "./mail.module.css";

export const metadata: Metadata = { title: "Mail sent by this Owo" };

/** Addresses in a plain-text body become links, so a mailed link can be followed from here (React escapes the rest). */
function withLinks(text: string) {
  return text.split(/(https?:\/\/[^\s<>"']+)/g).map((part, i) =>
    i % 2 === 1 ? (
      <a key={i} href={part}>
        {part}
      </a>
    ) : (
      part
    ),
  );
}

export default async function MailPage() {
  const { caller, api } = await signedInPage();
  if (settings().smtpUrl || !can(caller, "mail.read")) notFound();
  const mails = await api.mail.outbox();
  return (
    <section>
      <h1>Mail sent by this Owo</h1>
      <p className={styles.devOnly} role="note">
        <strong>Development only.</strong> This Owo has no SMTP server configured (<code>OWO_SMTP_URL</code>), so the mail it would send is
        kept here instead of being sent: invites, e-mail verification, password resets and security notices. Set <code>OWO_SMTP_URL</code>{" "}
        to send real mail; the operator can also print it with <code>npm run owo -- mail list</code>.
      </p>
      <p className="muted">
        Mail about {caller.merchantName} and mail addressed to you, newest first. Mail about other people&apos;s own accounts is not shown.
      </p>
      {mails.length === 0 && <p className="muted">No mail yet.</p>}
      {mails.map((m) => (
        <article key={m.id} className={`card ${styles.mail}`} data-testid="mail" aria-label={m.subject}>
          <header className={styles.head}>
            <strong>{m.subject}</strong>
            <span className="muted">
              to {m.to} · {lagosDateTime(m.createdAt)} · {m.status === "pending" ? "not sent (no SMTP)" : m.status}
            </span>
          </header>
          <pre className={styles.body}>{withLinks(m.text)}</pre>
        </article>
      ))}
    </section>
  );
}
