import type { Metadata } from "next";
import { keysCreateCommand, NOTICE_CHECKS, providerAddAnswer, providerAddCommands, shell } from "../provider-examples";
import { asJson, CodeBlock } from "../code-block";
import styles from "../docs.module.css";

export const metadata: Metadata = { title: "Going live with providers" };

export default function ProvidersDocsPage() {
  return (
    <>
      <h1>Going live with bank-side providers</h1>
      <p className={styles.lede}>
        Test keys are served by Owo&apos;s sandbox bank. Live payments are issued by your own accounts at Paystack, Flutterwave or SeerBit:
        you connect them with their credentials, Owo routes each live payment to the first one (by priority) that serves it, hears back from
        it at a notice URL, and asks it when a notice is late.
      </p>

      <h2>1. Connect a provider</h2>
      <p>
        In the dashboard: <strong>Providers</strong> (owners and admins), paste the credentials, pick a priority. Or, as the operator, with the
        CLI (replace <code>&lt;merchantId&gt;</code>):
      </p>
      <CodeBlock label="Paystack: the secret key from Settings → API Keys & Webhooks" code={shell(providerAddCommands.paystack)} />
      <CodeBlock label="Flutterwave: the secret key, and the secret hash you set under Settings → Webhooks" code={shell(providerAddCommands.flutterwave)} />
      <CodeBlock label="SeerBit: the public and secret keys from Settings → API Keys" code={shell(providerAddCommands.seerbit)} />
      <CodeBlock label="prints" code={asJson(providerAddAnswer)} />
      <p>
        Credentials are stored encrypted and never shown again; the dashboard shows their last 4 characters. Test credentials of a provider
        (e.g. <code>sk_test_…</code>) work too: the dashboard marks that account &quot;provider test mode&quot;.
      </p>

      <h2>2. Paste the notice URL at the provider</h2>
      <p>
        Each connected account has its own notice URL, <code>{"<OWO_PUBLIC_URL>/api/v2/providers/{providerId}/notices"}</code>, shown on the
        Providers page with a copy button. Paste it as the webhook URL on each provider&apos;s dashboard (SeerBit: Settings → Webhook). It must be reachable from the
        internet over https: an http or loopback URL is flagged. SeerBit&apos;s notices are acknowledged at once, echoing the
        X-Expected-Ack-Reference SeerBit sends, and confirmed with SeerBit afterwards. SeerBit refunds through its API only for
        merchants it has approved: once SeerBit has approved yours, tick &ldquo;approved refunds&rdquo; on the account&apos;s card on
        the Providers page; until then, refund those payments on SeerBit&apos;s dashboard.
      </p>
      <h3>What Owo checks on each notice</h3>
      <ol>
        {NOTICE_CHECKS.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>

      <h2>3. Create live keys</h2>
      <CodeBlock label="once a provider is connected (or the Providers page's button)" code={shell(keysCreateCommand)} />
      <p>
        Prints <code>{'{"publicKey":"pk_live_…","secretKey":"sk_live_…","webhookSecret":"whsec_…"}'}</code> once. Refused until a provider is
        connected, and when live keys exist already (roll them instead). The dashboard&apos;s mode switch appears once a provider is connected.
      </p>

      <h2>How live payments behave</h2>
      <ul>
        <li>Same requests and answers as test mode; the dial code, provider reference and account are the provider&apos;s.</li>
        <li>
          A provider that times out (<code>OWO_PROVIDER_TIMEOUT_MS</code>), answers 5xx or cannot be reached is skipped for this payment and the
          next is tried; five failures within a minute rest it for <code>OWO_PROVIDER_REST_SECONDS</code>, shown on the Providers page.
        </li>
        <li>
          None able: <code>502 S502</code> naming each provider&apos;s failure; nothing is stored and the same request may be sent again. A bank no
          connected provider serves for USSD: <code>400 S8</code>. A live key with no provider connected: <code>403 S3</code>.
        </li>
        <li>
          A missing notice never loses a payment: open live payments are asked about at their provider after about 1, 2, 5 and 10 minutes, then
          every 15 minutes until expiry and once after, and whenever you verify a payment whose last answer is over 30 s old.
        </li>
      </ul>
    </>
  );
}
