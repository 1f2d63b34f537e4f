// The mailer: claims due mail from the outbox and sends it over SMTP (OWO_SMTP_URL); runs inside the worker.
import nodemailer from "nodemailer";
import { log } from "../logger";
import { drainInFlight, leaseHeartbeat, pollingLoop, type PollingLoop } from "../recurring";
import { settings } from "../settings";
import { claimDueMail, recordMailAttempt, releaseMailLeases, renewMailLeases, type ClaimedMail } from "./outbox";

export type MailerOptions = { smtpUrl: string; from: string; leaseMs: number; backoffScale: number; pollMs?: number; batch?: number };
export type Mailer = { stop: (graceMs?: number) => Promise<void> };

// Bounded well inside a lease, and the heartbeat renews leases anyway: a slow server never gets a mail sent twice.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** The host part of Message-IDs: the public URL's host, so a receiver can tell Owo's mail and spot a repeat. */
function messageIdHost(): string {
  try {
    return new URL(settings().publicUrl).hostname || "localhost";
  } catch {
    return "localhost";
  }
}

/** Starts the mailer with the process's settings; returns null when no SMTP is configured (mail stays in the outbox). */
export function startMailerFromSettings(overrides: Partial<MailerOptions> = {}): Mailer | null {
  const s = settings();
  const smtpUrl = overrides.smtpUrl ?? s.smtpUrl;
  if (!smtpUrl) return null;
  return startMailer({
    smtpUrl,
    from: s.mailFrom,
    leaseMs: s.workerLeaseSeconds * 1000,
    backoffScale: s.webhookBackoffScale,
    ...overrides,
  });
}

export function startMailer(options: MailerOptions): Mailer {
  const { smtpUrl, from, leaseMs, backoffScale, pollMs = 500, batch = 8 } = options;
  const transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
  const host = messageIdHost();
  const inFlight = new Map<number, { claim: ClaimedMail; released: boolean; ended: boolean; done: Promise<void> }>();
  let polling: PollingLoop | null = null;

  const send = async (claim: ClaimedMail): Promise<string | null> => {
    try {
      await transport.sendMail({
        from,
        to: claim.to,
        subject: claim.subject,
        text: claim.text,
        html: claim.html,
        // The same id on every attempt of one mail: a receiver that got it twice can tell.
        messageId: `<owo-mail-${claim.id}-${claim.createdAt}@${host}>`,
        date: new Date(claim.createdAt),
      });
      return null;
    } catch (err) {
      const e = err as { message?: string; responseCode?: number };
      return `${e.responseCode ? `${e.responseCode} ` : ""}${e.message ?? String(err)}`.slice(0, 500);
    }
  };

  const launch = (claim: ClaimedMail) => {
    const entry = { claim, released: false, ended: false, done: Promise.resolve() };
    entry.done = send(claim)
      .then(async (error) => {
        // Recorded under the lease a renewal under way may still move (server/recurring.ts `leaseHeartbeat`).
        entry.ended = true;
        await heartbeat.settled();
        if (!entry.released) await recordMailAttempt(entry.claim, error, backoffScale);
        if (error) log.warn({ mailId: claim.id, error }, "mail not sent; will retry");
      })
      .catch((err: unknown) => log.error({ err, mailId: claim.id }, "could not record a mail attempt"))
      .finally(() => {
        inFlight.delete(claim.id);
        polling?.wake();
      });
    inFlight.set(claim.id, entry);
  };

  const heartbeat = leaseHeartbeat(Math.max(50, Math.floor(leaseMs / 3)), "mail", () =>
    renewMailLeases(
      [...inFlight.values()].filter((e) => !e.released && !e.ended).map((e) => e.claim),
      leaseMs,
    ),
  );

  polling = pollingLoop(pollMs, "mailer", async () => {
    for (const claim of await claimDueMail(batch - inFlight.size, leaseMs)) launch(claim);
  });

  return {
    stop: async (graceMs = 5000) => {
      await polling?.stop();
      const left = await drainInFlight(inFlight, graceMs);
      await heartbeat.stop();
      await releaseMailLeases(left.map((e) => e.claim));
      transport.close();
    },
  };
}
