import type { Metadata } from "next";
import { CodeBlock } from "../code-block";
import { clientTypescriptExample, exampleFile } from "../examples";

export const metadata: Metadata = { title: "Typed client" };

const PROCEDURES = [
  ["initiatePayment", "mutation", "The REST body without publicKey; a union on paymentType, so USSD needs bankCode and TRANSFER refuses it", "The payments object: ussdDailCode, or accountNumber and bankName"],
  ["verifyPayment", "query", "{ paymentReference }", "Verify's data: code, message, payments, customers"],
  ["payments.list", "query", "Filters (status, channel, from, to, minAmount, maxAmount, search), limit, cursor", "{ items, nextCursor }: newest first; pass nextCursor for the next page"],
  ["payments.byReference", "query", "{ paymentReference }", "The payment with its timeline of events"],
  ["sandbox.simulate", "mutation", '{ paymentReference, outcome: "pay" | "decline", amount? }', "The payments object once the sandbox bank's notice was applied (test keys only)"],
  ["webhooks.deliveries.byPayment", "query", "{ paymentReference }", "Each callback delivery of the payment, with every attempt"],
  ["webhooks.deliveries.resend", "mutation", "{ deliveryId }", "Sends a delivery again, with the same eventId"],
] as const;

export default function ClientPage() {
  return (
    <>
      <h1>Typed client</h1>
      <p>
        For Node and TypeScript backends, Owo ships a client that speaks its tRPC API with every procedure typed from the server
        itself: a request of the wrong shape (a USSD payment without its bankCode, a TRANSFER with one) does not compile, and every
        answer has its exact type.
        It buys the access token with your keys and keeps it fresh, and every failure reaches you as one <code>OwoError</code>.
      </p>

      <h2>Install</h2>
      <p>
        The client is the <code>owo/client</code> export of Owo&apos;s own package. <code>npm run build</code> builds it (or{" "}
        <code>npm run build:client</code> alone) into <code>client/dist</code>. Add Owo to your backend as a dependency (a path, a git
        URL or a workspace), then import it. It needs Node 20 or later and works from plain JavaScript (ESM) too.
      </p>
      <CodeBlock label="shell" code="npm install ../owo   # wherever your Owo checkout lives" />
      <CodeBlock label="your backend" code={'import { createOwoClient, OwoError } from "owo/client";'} />

      <h2>In TypeScript</h2>
      <CodeBlock label="checkout.ts" code={clientTypescriptExample} />

      <h2>A whole backend, end to end</h2>
      <p>
        This script initiates both channels, has the sandbox bank pay them, verifies and handles an error. Owo&apos;s tests run it in its
        own process against a real server.
      </p>
      <CodeBlock label="merchant-backend.example.mjs" code={exampleFile("merchant-backend.example.mjs")} />

      <h2>Procedures</h2>
      <table>
        <thead>
          <tr>
            <th>procedure</th>
            <th>kind</th>
            <th>takes</th>
            <th>answers</th>
          </tr>
        </thead>
        <tbody>
          {PROCEDURES.map(([name, kind, takes, answers]) => (
            <tr key={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>{kind}</td>
              <td>{takes}</td>
              <td>{answers}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Call queries with <code>.query(input)</code> and mutations with <code>.mutate(input)</code>. Amounts are naira strings
        (<code>&quot;1500.00&quot;</code>), never numbers.
      </p>

      <h2>The access token</h2>
      <ul>
        <li>
          The first call exchanges <code>secretKey.publicKey</code> at <code>POST /api/v2/encrypt/keys</code>; calls made at the same time
          share that one exchange.
        </li>
        <li>
          The token is renewed 60 seconds before it expires (halfway through its life when tokens live less than two minutes), judged by
          Owo&apos;s clock, so a skewed local clock does no harm.
        </li>
        <li>
          If Owo refuses the token anyway (a rolled secret key, a restored database) the client buys a new one once and repeats the call;
          a second refusal reaches you as <code>OwoError</code> <code>S1</code>.
        </li>
        <li>
          Pass <code>fetch</code> in the options to route requests through a proxy agent or add tracing.
        </li>
      </ul>

      <h2>Errors</h2>
      <table>
        <thead>
          <tr>
            <th>OwoError field</th>
            <th>what</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>code</code>
            </td>
            <td>
              The code of the <a href="/docs/errors">errors table</a> (<code>S5</code>, <code>S1</code>, <code>S404</code> …), or{" "}
              <code>NETWORK</code> when no answer in Owo&apos;s shape came back
            </td>
          </tr>
          <tr>
            <td>
              <code>httpStatus</code>
            </td>
            <td>The HTTP status Owo answered with; 0 when nothing answered</td>
          </tr>
          <tr>
            <td>
              <code>message</code>
            </td>
            <td>The same words the REST API answers with</td>
          </tr>
          <tr>
            <td>
              <code>errors</code>
            </td>
            <td>
              The fields at fault, <code>[{"{ field, message }"}]</code>; empty when no field is
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        <code>OwoError</code> extends tRPC&apos;s <code>TRPCClientError</code>, so code written for tRPC keeps working.
      </p>
    </>
  );
}
