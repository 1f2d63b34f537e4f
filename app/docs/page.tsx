import type { Metadata } from "next";
import { CodeBlock, CurlSteps } from "./code-block";
import styles from "./docs.module.css";
import { quickStart, setupCommand } from "./examples";

export const metadata: Metadata = { title: "Quick start" };

export default function QuickStartPage() {
  return (
    <>
      <h1>Quick start</h1>
      <p className={styles.lede}>
        Take a USSD payment and a bank-transfer payment from start to finish in test mode, with nothing but curl. Every command
        below is run by Owo&apos;s own tests exactly as shown, so it works as written.
      </p>
      <p>
        Owo answers a payment request with a <strong>USSD dial code</strong> (the customer dials it on their phone) or with a{" "}
        <strong>bank account opened for that payment</strong> (the customer transfers into it). Owo hears of the money from the bank
        side, tells your server by a signed callback, and answers verification. The REST API is wire-compatible with the SeerBit-style
        v2 initiation API: same paths, same field names.
      </p>

      <h2>Before you start</h2>
      <p>
        You need a test key pair: the <a href="/signup">sign-up</a> gives you one (the dashboard&apos;s Developers page shows the public
        key and rolls the secret), and so does <code>npm run owo -- merchant create … --json</code> on the server. Test keys{" "}
        (<code>pk_test_…</code> and <code>sk_test_…</code>) are served by the sandbox bank: no real money moves. Keep the secret key on your
        server, never in a browser or an app.
      </p>
      <CodeBlock label="shell" code={setupCommand} />

      <CurlSteps steps={quickStart} />

      <div className={styles.note}>
        Sending an initiation again with the same <code>paymentReference</code> and the same fields answers the first answer again, so
        a retry after a network error is safe. The same reference with different fields is refused with 409 <code>S14</code>.
      </div>

      <h2>Next</h2>
      <div className={styles.next}>
        <a href="/docs/client">
          <strong>Typed client</strong>
          <span>Node and TypeScript backends: tokens handled, every call typed.</span>
        </a>
        <a href="/docs/callbacks">
          <strong>Callbacks</strong>
          <span>Verify the signature, dedupe, order events by sequence.</span>
        </a>
        <a href="/docs/errors">
          <strong>Errors</strong>
          <span>Every code, its HTTP status, and the order of checks.</span>
        </a>
        <a href="/api/v2/openapi.json">
          <strong>OpenAPI 3.1</strong>
          <span>For code generators and API tools.</span>
        </a>
      </div>
    </>
  );
}
