"use client";
// One payment, kept live: polled every 2.5 s while the page is open, so the bank's notices and callbacks show as they land.
import { channelLabel, lagosDateTime, naira } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import { RefundBadge, StatusBadge } from "../payment-table";
import { DeliveriesPanel } from "./deliveries-panel";
import styles from "./detail.module.css";
import { IssuedPanel } from "./issued-panel";
import { providerWord } from "../../book-words";
import { LedgerPanel } from "./ledger-panel";
import { MoneyBack } from "./money-back";
import { OutcomePanel } from "./outcome-panel";
import { POLL_MS } from "./poll";
import { SandboxPanel } from "./sandbox-panel";
import { Timeline } from "./timeline";

const SOURCE = { rest: "REST API", trpc: "tRPC API", dashboard: "Dashboard", link: "Payment link", seed: "Sample data" } as const;

type Props = {
  initial: PaymentWithTimeline;
  qr: string | null;
  canAct: boolean;
  canMoveMoney: boolean;
  renderedAt: number;
  justCreated: boolean;
};

export function PaymentLive({ initial, qr, canAct, canMoveMoney, renderedAt, justCreated }: Props) {
  const paymentReference = initial.payments.paymentReference;
  const { data } = trpc.payments.byReference.useQuery({ paymentReference }, { initialData: initial, refetchInterval: POLL_MS });
  const d = data ?? initial;
  const p = d.payments;
  const { open } = d.state;
  // While the customer can pay, what they were given comes right after the outcome; once ended, below the refunds.
  const issuedPanel = (
    <IssuedPanel issued={d.issued} open={open} expiresAt={p.expiresAt} renderedAt={renderedAt} qr={qr} checkoutUrl={d.checkoutUrl} />
  );

  return (
    <article className={styles.page}>
      <a href="/payments" className={styles.back}>
        ← Payments
      </a>
      {/* Only while the customer can still pay: once money settled or ended it, the outcome below says what happened. */}
      {justCreated && open && (
        <p className={styles.created} role="status">
          Payment created. Give your customer the {p.paymentType === "USSD" ? "dial code" : "account"} below or the checkout link; this page
          updates by itself when money arrives.
        </p>
      )}
      <header className={styles.head}>
        <div>
          <p className={styles.amount} data-testid="payment-amount">
            {naira(p.amount)}
          </p>
          <p className={styles.ref}>
            <span className="mono">{p.paymentReference}</span> · {channelLabel(p.paymentType)} · {lagosDateTime(p.createdAt)}
          </p>
        </div>
        {/* Both marks as the payments list shows them, from the same core values. */}
        <div className={styles.badges}>
          <span data-testid="payment-status" className={styles.status}>
            <StatusBadge status={p.status} />
          </span>
          {d.state.refunded && (
            <span data-testid="payment-refund-mark" className={styles.status}>
              <RefundBadge mark={d.state.refunded} />
            </span>
          )}
        </div>
      </header>

      <div className={styles.columns}>
        <div className={styles.main}>
          <OutcomePanel detail={d} />
          {open && issuedPanel}
          <MoneyBack detail={d} canMoveMoney={canMoveMoney} />
          {!open && issuedPanel}
          <LedgerPanel books={d.books} provider={d.provider} />
          <Timeline events={d.timeline} providerLog={d.providerLog} />
          <DeliveriesPanel
            paymentReference={paymentReference}
            canAct={canAct}
            seeded={d.source === "seed"}
            open={open}
            hasCallbackUrl={Boolean(d.callbackUrl)}
          />
        </div>

        <aside className={styles.side}>
          {/* Nothing to pay into until a standard-checkout customer chooses a channel. */}
          {p.mode === "test" && canAct && p.paymentType !== null && <SandboxPanel payment={p} state={d.state} />}
          <section className="card">
            <h2>Customer</h2>
            <dl className={styles.facts}>
              <dt>Name</dt>
              <dd>{d.customers.customerName}</dd>
              <dt>Phone</dt>
              <dd>
                <a href={`tel:${d.customers.customerMobile}`}>{d.customers.customerMobile}</a>
              </dd>
              <dt>E-mail</dt>
              <dd>
                <a href={`mailto:${d.customers.customerEmail}`}>{d.customers.customerEmail}</a>
              </dd>
            </dl>
          </section>
          <section className="card">
            <h2>Details</h2>
            <dl className={styles.facts}>
              <dt>Linking ref.</dt>
              <dd className="mono">{p.linkingReference}</dd>
              <dt>Provider</dt>
              <dd data-testid="provider">{providerWord(d.provider.name)}</dd>
              {d.provider.providerReference && (
                <>
                  <dt>Provider ref.</dt>
                  <dd className="mono" data-testid="provider-reference">
                    {d.provider.providerReference}
                  </dd>
                </>
              )}
              {d.provider.providerId && (
                <>
                  <dt>Requeries</dt>
                  <dd>{d.provider.requeries}</dd>
                </>
              )}
              <dt>Source</dt>
              <dd>{SOURCE[d.source]}</dd>
              <dt>Mode</dt>
              <dd>{p.mode === "test" ? "Test" : "Live"}</dd>
              <dt>Expires</dt>
              <dd>{lagosDateTime(p.expiresAt)}</dd>
              <dt>Callback</dt>
              <dd className={styles.url} data-testid="callback-url">
                {d.callbackUrl || "None: only your webhook endpoints are told"}
              </dd>
              <dt>Redirect</dt>
              <dd className={styles.url} data-testid="redirect-url">
                {d.redirectUrl || "None: the customer stays on Owo's receipt page"}
              </dd>
            </dl>
          </section>
        </aside>
      </div>
    </article>
  );
}
