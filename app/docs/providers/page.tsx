import type { Metadata } from "next";
import { keysCreateCommand, localWalk, NOTICE_CHECKS, providerAddAnswer, providerAddCommands, shell } from "../provider-examples";
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

      <h2>Try it on this machine first: a provider&apos;s test double</h2>
      <p>
        Owo ships a test double of each provider: a small server that speaks the provider&apos;s API as its documents describe it, keeps its
        own transactions, and sends the provider&apos;s signed webhooks. With it you can follow a live payment end to end with no account at
        the provider and no network. Start from the demo (<code>npm run demo</code>, which prints the demo merchant&apos;s id and keys).
      </p>
      <ol className={styles.steps}>
        <li>
          Start Owo so that the Providers page offers a <strong>Base URL</strong> field (the double&apos;s address) and callbacks may reach
          this machine (both are off by default, and stay off in production):
          <CodeBlock code={localWalk.start} />
        </li>
        <li>
          In a second terminal, start Paystack&apos;s double. It listens on port 4010 and accepts the secret key{" "}
          <code>{localWalk.doubleKey}</code> (<code>--secret-key</code> picks another):
          <CodeBlock code={localWalk.double} />
          <CodeBlock label="prints" code={JSON.stringify(localWalk.doublePrints)} />
        </li>
        <li>
          Connect it. In the dashboard: <strong>Providers</strong>, Paystack, secret key <code>{localWalk.doubleKey}</code>, Base URL{" "}
          <code>{localWalk.doublePrints.url}</code>. Owo tries the key on the double before saving it. Or with the CLI, with your merchant
          id (the Developers page shows it, and so does this list):
          <CodeBlock code={localWalk.merchantList} />
          <CodeBlock code={localWalk.connect} />
        </li>
        <li>
          Give the double the account&apos;s notice URL (the <code>noticeUrl</code> printed, or the Providers page&apos;s copy button):
          this is what you would paste as the webhook URL on Paystack&apos;s dashboard. Starting the double with{" "}
          <code>--webhook-url &lt;noticeUrl&gt;</code> does the same.
          <CodeBlock code={localWalk.webhook} />
        </li>
        <li>
          Create live keys (or the Providers page&apos;s <strong>Create live keys</strong>), then buy an access token with them; the
          token is the answer&apos;s <code>EncryptedSecKey.encryptedKey</code>:
          <CodeBlock code={localWalk.keys} />
          <CodeBlock code={localWalk.token} />
        </li>
        <li>
          Ask for a live payment. The dial code in the answer is the one Paystack&apos;s double issued, and{" "}
          <code>providerreference</code> is its reference for the payment:
          <CodeBlock code={localWalk.initiate} />
        </li>
        <li>
          Pay as the customer. A real customer dials the code at their bank; here the double&apos;s own route stands in for them
          (<code>/decline</code> beside it declines). The double sends its signed <code>charge.success</code> to the notice URL, Owo
          checks it against the double&apos;s record, and the payment is paid:
          <CodeBlock code={localWalk.pay} />
          <CodeBlock code={localWalk.verify} />
        </li>
        <li>
          Owo then calls your <code>callbackUrl</code> on this machine, which it does only because of{" "}
          <code>OWO_ALLOW_PRIVATE_CALLBACKS=1</code>: without it a callback to localhost or a private address is refused, shown as
          &ldquo;Retrying&rdquo; on the payment&apos;s page with a note saying so. In production, callbacks go to public https URLs.
        </li>
      </ol>
      <p>
        The same works with <code>npm run double -- flutterwave</code> and <code>npm run double -- seerbit</code>; run{" "}
        <code>npm run double</code> alone for each double&apos;s flags and control routes (faults, delayed refunds, replayed webhooks).
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
        Owo tries the credentials at the provider before saving them: a key the provider refuses is answered with what the provider
        said, and a provider Owo cannot reach with where it called; nothing is saved either way. Credentials are stored encrypted and
        never shown again; the dashboard shows their last 4 characters. Test credentials of a provider
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
      <h3>Your own sales on the same account</h3>
      <p>
        A provider takes one webhook URL per account, so once it is Owo&apos;s, notices for the sales your website makes on that account
        reach Owo too. Owo sends every live payment under its own reference prefix — <code>owo_…</code>, and <code>owo-…</code> at
        Paystack, which allows no underscore in a reference — and passes every notice for any other transaction on, unchanged (the body
        byte for byte and the provider&apos;s headers, so its signature still verifies), to the <strong>forwarding URL</strong> you set on
        the account&apos;s card on the Providers page: usually the webhook URL your website used before. Forwards are retried like
        callbacks, follow the same address rules, and the card lists the recent ones with their result. With no forwarding URL they are only
        recorded.
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
