import type { Metadata } from "next";
import { CopyButton } from "@/app/copy-button";
import { lagosDateTime } from "@/app/payment-display";
import { settings } from "@/server/settings";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import { AddEndpoint, EndpointCard } from "./endpoints";
import { LinkDefaultsForm } from "./link-defaults-form";
import { RollSecretKey, SigningSecret } from "./secrets";
import styles from "./developers.module.css";

export const metadata: Metadata = { title: "Developers" };

function samples(publicUrl: string, publicKey: string) {
  const exchange = `curl -s -X POST ${publicUrl}/api/v2/encrypt/keys \\
  -H 'Content-Type: application/json' \\
  -d '{"key": "YOUR_SECRET_KEY.${publicKey}"}'`;
  const initiate = `curl -s -X POST ${publicUrl}/api/v2/payments/initiates \\
  -H "Authorization: Bearer $TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '{"publicKey": "${publicKey}", "amount": "1500", "fullName": "Ada Obi",
       "mobileNumber": "08012345678", "email": "ada@example.com", "currency": "NGN",
       "country": "NG", "paymentReference": "ord-1001", "paymentType": "TRANSFER",
       "callbackUrl": "https://shop.example.ng/owo/callback",
       "redirectUrl": "https://shop.example.ng/thanks"}'`;
  return { exchange, initiate };
}

export default async function DevelopersPage() {
  const { caller, api } = await signedInPage();
  const [keys, endpoints, defaults] = await Promise.all([api.keys.list(), api.webhooks.endpoints.list(), api.links.defaults()]);
  const { publicUrl } = settings();
  const mayChange = can(caller, "change");
  const current = keys.find((k) => k.mode === caller.mode);
  const code = current ? samples(publicUrl, current.publicKey) : null;
  return (
    <section>
      <h1>Developers</h1>
      <p className="muted">
        Keys and callbacks for <strong>{caller.mode === "test" ? "test mode" : "live mode"}</strong>. Test mode is served by the sandbox
        bank: no real money moves.
      </p>
      {!caller.liveAvailable && (
        <div className={`card ${styles.notice}`} role="note">
          <strong>Live mode starts once a bank-side provider is connected.</strong> Connect your Paystack, Flutterwave or SeerBit account on
          the <a href="/providers">Providers</a> page; until then there are no live keys here, and test keys and the sandbox bank work
          fully.
        </div>
      )}

      <h2>API keys</h2>
      <div className="card">
        <dl className={styles.keyGrid}>
          <dt>Merchant id</dt>
          <dd>
            <code data-testid="merchant-id">{caller.merchantId}</code>
            <CopyButton value={caller.merchantId} />
            <span className="muted">
              quote it when you write to support: it names your business on this Owo (the operator CLI&apos;s --merchant)
            </span>
          </dd>
        </dl>
        {keys.map((k) => {
          const [secret, ...rolling] = [...k.secrets].sort((a, b) => b.createdAt - a.createdAt);
          return (
            <dl key={k.mode} className={styles.keyGrid} data-testid={`keys-${k.mode}`}>
              <dt>Mode</dt>
              <dd>
                <span className={`mode-badge mode-${k.mode}`}>{k.mode}</span>
              </dd>
              <dt>Public key</dt>
              <dd>
                <code data-testid="public-key">{k.publicKey}</code>
                <CopyButton value={k.publicKey} />
              </dd>
              <dt>Secret key</dt>
              <dd>
                <code>
                  sk_{k.mode}_••••••••{secret?.last4}
                </code>
                <span className="muted">shown once when issued; only its last 4 are kept visible</span>
              </dd>
              {rolling.map((r) => (
                <dd key={r.last4 + r.createdAt} style={{ gridColumn: "2" }} className="muted">
                  Previous secret …{r.last4} still works until {lagosDateTime(r.expiresAt ? new Date(r.expiresAt).toISOString() : null)}
                </dd>
              ))}
            </dl>
          );
        })}
        {mayChange && current && <RollSecretKey />}
      </div>

      {code && (
        <>
          <h2>Try it</h2>
          <p className="muted">Buy an access token with your key pair (secret first), then initiate a payment with it:</p>
          <pre className={styles.code} data-testid="curl-exchange">
            {code.exchange}
          </pre>
          <pre className={styles.code}>{code.initiate}</pre>
          <p className="muted">
            The full contract, with every field and error code, is in the <a href="/docs">API documentation</a>.
          </p>
        </>
      )}

      <h2>Callbacks</h2>
      <div className="card stack">
        <p className="muted" style={{ margin: 0 }}>
          Every payment event is POSTed to the payment&apos;s callbackUrl and to each enabled endpoint below, signed with your signing
          secret (Standard Webhooks: <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).
        </p>
        {mayChange ? <SigningSecret /> : <p className="muted">Only owners, admins and developers can see the signing secret.</p>}
      </div>

      <h2>Webhook endpoints</h2>
      <div className="card stack">
        {mayChange && <AddEndpoint />}
        {endpoints.length === 0 ? (
          <p className="muted">No endpoints yet. Callbacks still go to each payment&apos;s callbackUrl.</p>
        ) : (
          <div className={styles.endpoints}>
            {endpoints.map((e) => (
              <EndpointCard key={e.id} endpoint={e} mayChange={mayChange} />
            ))}
          </div>
        )}
      </div>

      <h2>Payment link defaults</h2>
      <div className="card">
        <p className="muted" style={{ marginTop: 0 }}>
          New payment links send callbacks and customers to these unless the link names its own. Left empty, customers land on Owo&apos;s
          own thank-you page.
        </p>
        <LinkDefaultsForm defaults={defaults} fallback={`${publicUrl}/pay/<link>/done`} mayChange={mayChange} />
      </div>
    </section>
  );
}
