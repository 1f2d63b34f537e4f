// A real SMTP server inside the test process (the `smtp-server` package): what Owo sent, parsed as a mail client would.
import { simpleParser } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { eventually } from "./eventually";

export type ReceivedMail = { messageId: string; from: string; to: string; subject: string; text: string; html: string };

export type TestSmtp = {
  url: string;
  mails: ReceivedMail[];
  /** Refuses the next `n` messages to `to` with 451 (a temporary failure a sender must retry). */
  refuseNext: (to: string, n: number) => void;
  /** Resolves once a mail to `to` whose subject matches has arrived. */
  waitFor: (to: string, subject?: RegExp, timeoutMs?: number) => Promise<ReceivedMail>;
  stop: () => Promise<void>;
};

export async function startTestSmtp(opts: { acceptDelayMs?: number } = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: the test server has no certificate for STARTTLS.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (parsed) => {
          const refused = session.envelope.rcptTo.map((r) => r.address).find((a) => (refusals.get(a) ?? 0) > 0);
          if (refused) {
            refusals.set(refused, (refusals.get(refused) ?? 1) - 1);
            const err = Object.assign(new Error("Try again later"), { responseCode: 451 });
            return callback(err);
          }
          if (opts.acceptDelayMs) await new Promise((r) => setTimeout(r, opts.acceptDelayMs));
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(", ") : (parsed.to?.text ?? "");
          mails.push({
            messageId: parsed.messageId ?? "",
            from: parsed.from?.text ?? "",
            to,
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    refuseNext: (to, n) => refusals.set(to, n),
    waitFor: (to, subject, timeoutMs = 15_000) =>
      eventually(
        `a mail to ${to}${subject ? ` matching ${subject}` : ""}`,
        () => mails.find((m) => m.to.includes(to) && (!subject || subject.test(m.subject))),
        timeoutMs,
        () => `got: ${mails.map((m) => `${m.to} "${m.subject}"`).join("; ")}`,
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
