import type { Metadata } from "next";
import { CodeBlock, CurlSteps } from "../code-block";
import { exampleFile, seerbitSteps, setupCommand } from "../examples";
import styles from "../docs.module.css";

export const metadata: Metadata = { title: "Coming from SeerBit" };

const UNCHANGED = [
  "POST /api/v2/encrypt/keys: the same token exchange ({\"key\": \"<secretKey>.<publicKey>\"}), with Owo's keys.",
  "POST /api/v2/payments (standard checkout): SeerBit's bodies as its SDKs send them, amount and paymentReference as strings or numbers, null product fields, tokenize, hash and hashType.",
  "GET /api/v3/payments/query/{paymentReference} and /api/v2/…: verify, including the SDK's GET that carries a body with no length.",
  "GET /api/v2/banks/merchant/{publicKey}: merchant banks.",
  "POST /api/v2/payments/initiates: USSD and TRANSFER initiation, with SeerBit's field names (ussdDailCode, providerreference).",
  "Notifications: notificationItems[0].notificationRequestItem.data carries reference, gatewayCode, gatewayMessage and publicKey, so shop plugins that read data.reference and data.gatewayCode == \"00\" mark orders paid unchanged.",
  "Chunked bodies, a charset on Content-Type, unknown headers and fields: all accepted.",
];

const DIFFERENT = [
  "Channels: USSD and bank transfer only. Card, mobile money, recurring, orders and pre-authorisation paths are not served: every /api/ path Owo does not serve is 404 S404 in the envelope.",
  "Standard checkout: the customer chooses USSD (and their bank) or a bank transfer on Owo's page at redirectLink. paymentStatus is \"08\" and verify shows paymentType null (status PENDING, code S20) until they choose; then it is an ordinary payment of that channel.",
  "Its lifetime is OWO_TRANSFER_TTL_SECONDS (30 min) from creation; choosing USSD shortens it to 10 minutes from the choice. Amounts from 100.00 to 10,000,000.00; USSD is offered up to 1,000,000.00.",
  "callbackUrl keeps SeerBit's meaning: where the customer's browser returns when the payment ends. Send redirectUrl too and the browser goes there, while callbackUrl receives the server callbacks. A URL without a scheme (www.shop.ng/done) gets https://.",
  "The hash is accepted and not checked: the bearer token already proves the request is yours. tokenize, productId and productDescription are accepted and not stored.",
  "Callbacks are signed (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) and retried for 72 hours. A receiver that ignores the headers still works; verify the signature, or verify the payment, before you deliver.",
  "Errors are Owo's envelope: {\"status\":\"ERROR\",\"data\":{\"code\":\"S5\",\"message\":…,\"errors\":[{\"field\",\"message\"}]}}; the HTTP status says the same (see Errors).",
  "Merchant banks: status is ACTIVE and minimumAmount 100.00 for every bank; with live keys a bank supports USSD only where a provider you connected serves it.",
  "Verify adds fields SeerBit's clients can ignore: gatewayCode (= data.code), provider (who issued the code or account), amountRefunded.",
];

export default function ComingFromSeerBitPage() {
  return (
    <>
      <h1>Coming from SeerBit</h1>
      <p className={styles.lede}>
        An integration written for SeerBit&apos;s v2 API keeps working against Owo: change the base URL from SeerBit&apos;s to your Owo&apos;s
        (<code>https://seerbitapi.com/api/v2/</code> → <code>&lt;your Owo&gt;/api/v2/</code>), use the keys from Owo&apos;s dashboard, and
        change nothing else.
      </p>

      <h2>SeerBit&apos;s Node SDK, pointed at Owo</h2>
      <p>
        <code>seerbit-nodejs</code> unchanged: only its endpoint is set. Owo&apos;s test suite runs this very file against a real Owo behind
        TLS.
      </p>
      <CodeBlock label="seerbit-nodejs.example.mjs" code={exampleFile("seerbit-nodejs.example.mjs")} />

      <h2>The same calls with curl</h2>
      <CodeBlock label="shell" code={setupCommand} />
      <CurlSteps steps={seerbitSteps} heading="h3" idPrefix="seerbit-" />

      <h2>What works unchanged</h2>
      <ul>
        {UNCHANGED.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>

      <h2>What differs</h2>
      <ul>
        {DIFFERENT.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}
