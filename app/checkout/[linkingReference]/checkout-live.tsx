"use client";
// The customer's side of a payment: what to dial or where to transfer, a countdown, the payment followed live,
// then a receipt and the way back to the shop. Plain tRPC client, no query cache: this page must stay light on a phone.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { useEffect, useState } from "react";
import superjson from "superjson";
import { BusinessMark, SupportContact } from "@/app/business-identity";
import { CopyButton } from "@/app/copy-button";
import { Countdown } from "@/app/countdown";
import { lagosDateTime, naira } from "@/app/payment-display";
import { TransferAccount } from "@/app/transfer-account";
import type { CheckoutStatus } from "@/server/payments/checkout";
import type { LateMoney } from "@/server/payments/state";
import { ChannelChooser } from "./channel-chooser";
import type { AppRouter } from "@/server/trpc/root";
import styles from "./checkout.module.css";

const POLL_MS = 2500;
const HIDDEN_POLL_MS = 10_000;
const RETURN_AFTER_S = 5;

const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: "/api/trpc", transformer: superjson })] });

/** Polls while the payment is open: quicker when visible, backing off when limited or offline. */
function useLiveView(initial: CheckoutStatus): [CheckoutStatus, (view: CheckoutStatus) => void] {
  const [view, setView] = useState(initial);
  useEffect(() => {
    if (!view.open) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      let wait = document.visibilityState === "hidden" ? HIDDEN_POLL_MS : POLL_MS;
      try {
        const next = await client.checkout.status.query({ linkingReference: view.linkingReference });
        if (stopped) return;
        setView(next);
        if (!next.open) return;
        // Past the deadline the next answer reads EXPIRED; ask for it right away.
        wait = Math.min(wait, Math.max(250, Date.parse(next.expiresAt) - Date.now() + 250));
      } catch (e) {
        const limited = e instanceof TRPCClientError && (e.data as { httpStatus?: number } | undefined)?.httpStatus === 429;
        wait = limited ? 15_000 : 5_000;
      }
      if (!stopped) timer = setTimeout(tick, wait);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [view.open, view.linkingReference]);
  return [view, setView];
}

function GoingBack({ to, merchant }: { to: string; merchant: string }) {
  const [left, setLeft] = useState(RETURN_AFTER_S);
  useEffect(() => {
    if (left <= 0) {
      window.location.assign(to);
      return;
    }
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, to]);
  return (
    <div className={styles.back}>
      <a href={to} className={`button ${styles.wide}`}>
        Return to {merchant}
      </a>
      <p className="muted" aria-live="polite">
        Taking you back in {Math.max(0, left)} s…
      </p>
    </div>
  );
}

/** Late money is the customer's: say whether it is still owed to them or already back with them, and how much. */
function lateWords({ arrived, refunded, owed }: LateMoney): string {
  const came = `${naira(arrived)} arrived after the payment had ended`;
  if (refunded === "0.00") return `${came} and is due back to you.`;
  if (owed === "0.00") return `${came} and has been refunded to you.`;
  return `${came}: ${naira(refunded)} of it has been refunded to you and ${naira(owed)} is still due back.`;
}

/** An expired part payment is the customer's too: refunded, partly refunded, or still to be. */
function partWords(view: CheckoutStatus): string {
  if (view.paidBack === "0.00") return `${view.merchantName} will refund it.`;
  if (view.paidBack === view.amountPaid) return "It has been refunded to you.";
  return `${naira(view.paidBack)} of it has been refunded to you; ${view.merchantName} will refund the rest.`;
}

function Receipt({ view }: { view: CheckoutStatus }) {
  const outcome = {
    SUCCESSFUL: { mark: "✓", title: "Payment received", tone: styles.good },
    FAILED: { mark: "✕", title: "Payment declined", tone: styles.bad },
    EXPIRED: { mark: "!", title: "This payment has expired", tone: styles.neutral },
    CANCELLED: { mark: "!", title: "The shop cancelled this payment", tone: styles.neutral },
    PENDING: { mark: "", title: "", tone: "" },
    PARTIALLY_PAID: { mark: "", title: "", tone: "" },
  }[view.status];
  return (
    <section className={styles.receipt} data-testid="receipt">
      <span className={`${styles.mark} ${outcome.tone}`} aria-hidden>
        {outcome.mark}
      </span>
      <h1 className={styles.receiptTitle}>{outcome.title}</h1>
      {view.status === "SUCCESSFUL" && (
        <dl className={styles.facts}>
          <dt>Paid</dt>
          <dd>{naira(view.amountPaid)}</dd>
          <dt>To</dt>
          <dd>{view.merchantName}</dd>
          <dt>Reference</dt>
          <dd className="mono">{view.paymentReference}</dd>
          <dt>Date</dt>
          <dd>{lagosDateTime(view.paidAt)}</dd>
          {view.paidBack !== "0.00" && (
            <>
              <dt>Refunded</dt>
              <dd data-testid="receipt-refunded">{naira(view.paidBack)}</dd>
            </>
          )}
        </dl>
      )}
      {view.status === "FAILED" && <p>Your bank declined the debit, so no money was taken. You can try again from the shop.</p>}
      {view.status === "EXPIRED" && (
        <p>
          {view.somethingPaid
            ? `${naira(view.amountPaid)} arrived but not the full amount in time. ${partWords(view)}`
            : "No money was taken. Start again from the shop to get a new one."}
        </p>
      )}
      {view.status === "CANCELLED" && <p>Do not pay it now. Start again from the shop if you still mean to buy.</p>}
      {view.late && <p data-testid="late-money">{lateWords(view.late)}</p>}
    </section>
  );
}

export function CheckoutLive({ initial, qr, renderedAt }: { initial: CheckoutStatus; qr: string | null; renderedAt: number }) {
  const [view, setView] = useLiveView(initial);
  const { issued, offer } = view;
  const partly = view.status === "PARTIALLY_PAID";
  return (
    <div className={styles.card}>
      {view.mode === "test" && <p className={styles.test}>Test payment · no real money moves</p>}
      <BusinessMark name={view.merchantName} logoUrl={view.business.logoUrl} className={styles.merchant} />
      {view.link && (
        <div className={styles.forWhat} data-testid="checkout-link">
          <p className={styles.linkTitle}>{view.link.title}</p>
          {view.link.description && <p className="muted">{view.link.description}</p>}
        </div>
      )}
      <p className={styles.amount} data-testid="checkout-amount">
        {naira(view.open ? view.amountDue : view.amount)}
      </p>
      {partly && (
        <p className={styles.partly} role="status">
          {naira(view.amountPaid)} received · {naira(view.amountDue)} still to pay
        </p>
      )}

      {view.open && offer ? (
        <ChannelChooser
          offer={offer}
          choose={(choice) => client.checkout.choose.mutate({ linkingReference: view.linkingReference, ...choice })}
          onChosen={setView}
        />
      ) : view.open && issued ? (
        <>
          {issued.paymentType === "USSD" ? (
            <section className={styles.how}>
              <p>Dial this code on the phone linked to your {issued.bankName} account, then confirm with your PIN.</p>
              <a href={issued.telLink} className={styles.code} data-testid="checkout-dial-code">
                {issued.dialCode}
              </a>
              <div className={styles.actions}>
                <a href={issued.telLink} className={`button ${styles.wide}`}>
                  Dial now
                </a>
                <CopyButton value={issued.dialCode} label="Copy code" className={`secondary ${styles.wide}`} />
              </div>
              {qr && <img src={qr} alt="" className={styles.qr} width={150} height={150} />}
              {qr && <p className={`muted ${styles.qrNote}`}>On a computer? Scan with your phone&apos;s camera to dial.</p>}
            </section>
          ) : (
            <section className={styles.how}>
              <p>Transfer exactly {naira(view.amountDue)} from any bank app to:</p>
              <TransferAccount
                account={issued}
                testId="checkout-account-number"
                className={styles.account}
                numberClassName={styles.number}
              />
              <p className="muted">
                This account is for this payment only. Money sent after it expires does not pay for it: {view.merchantName} is told to
                refund it to you.
              </p>
            </section>
          )}
          <p className={styles.timer}>
            {issued.paymentType === "USSD" ? "Code expires in " : "Account expires in "}
            <Countdown expiresAt={view.expiresAt} renderedAt={renderedAt} className={styles.clock} />
          </p>
          <p className={styles.waiting} role="status">
            <span className={styles.pulse} aria-hidden /> Waiting for your payment…
          </p>
        </>
      ) : (
        <Receipt view={view} />
      )}
      {view.returnUrl && <GoingBack to={view.returnUrl} merchant={view.merchantName} />}
      <SupportContact business={view.business} />
      <p className={styles.footer}>
        Secured by <strong>Owo</strong> · <span className="mono">{view.linkingReference}</span>
      </p>
    </div>
  );
}
