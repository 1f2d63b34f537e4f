// What the customer was given, with the ways to pass it on: tap-to-dial and a QR code, or the account to copy, and the checkout link.
import { CopyButton } from "@/app/copy-button";
import { Countdown } from "@/app/countdown";
import { TransferAccount } from "@/app/transfer-account";
import type { PaymentWithTimeline } from "@/server/payments/timeline";
import styles from "./issued.module.css";

type Props = {
  issued: PaymentWithTimeline["issued"];
  open: boolean;
  expiresAt: string | null;
  renderedAt: number;
  qr: string | null;
  checkoutUrl: string;
};

function CheckoutLink({ checkoutUrl }: { checkoutUrl: string }) {
  return (
    <div className={styles.checkout}>
      <span className="muted">Checkout page</span>
      <a href={checkoutUrl} target="_blank" rel="noreferrer" className="mono">
        {checkoutUrl.replace(/^https?:\/\//, "")}
      </a>
      <CopyButton value={checkoutUrl} label="Copy link" />
    </div>
  );
}

export function IssuedPanel({ issued, open, expiresAt, renderedAt, qr, checkoutUrl }: Props) {
  if (!issued) {
    // A standard-checkout payment: the customer picks USSD or a transfer on the checkout page.
    return (
      <section className={`card ${styles.issued} ${open ? styles.issuedOpen : ""}`}>
        <h2>{open ? "Waiting for the customer to choose" : "No channel chosen"}</h2>
        <p className="muted">
          {open ? "The customer has not chosen USSD or a bank transfer on the checkout page yet." : "The customer never chose how to pay."}
        </p>
        <CheckoutLink checkoutUrl={checkoutUrl} />
      </section>
    );
  }
  const what = issued.paymentType === "USSD" ? `Dial code · ${issued.bankName}` : "Account to pay into";
  return (
    <section className={`card ${styles.issued} ${open ? styles.issuedOpen : ""}`}>
      <div className={styles.issuedHead}>
        <h2>
          {open
            ? what
            : `What the customer was given: ${issued.paymentType === "USSD" ? `a dial code at ${issued.bankName}` : "an account"}`}
        </h2>
        {open && expiresAt && (
          <span className={styles.expiry}>
            Expires in <Countdown expiresAt={expiresAt} renderedAt={renderedAt} className={styles.clock} />
          </span>
        )}
      </div>
      {!open && (
        <p className={styles.ended}>
          This payment has ended: money sent to this {issued.paymentType === "USSD" ? "dial code" : "account"} now is owed back to the
          customer.
        </p>
      )}
      {issued.paymentType === "USSD" ? (
        <div className={styles.dial}>
          <div>
            {open ? (
              <a href={issued.telLink} className={styles.code} data-testid="dial-code">
                {issued.dialCode}
              </a>
            ) : (
              <span className={`mono ${styles.spent}`} data-testid="dial-code">
                {issued.dialCode}
              </span>
            )}
            {open && (
              <>
                <p className="muted">
                  The customer dials this from the phone number registered with {issued.bankName}, then confirms with their PIN.
                </p>
                <div className="row">
                  <a href={issued.telLink} className="button">
                    Dial
                  </a>
                  <CopyButton value={issued.dialCode} label="Copy code" />
                </div>
              </>
            )}
          </div>
          {qr && open && <img src={qr} alt={`QR code that dials ${issued.dialCode}`} className={styles.qr} width={168} height={168} />}
        </div>
      ) : (
        <TransferAccount
          account={issued}
          testId="account-number"
          className={styles.account}
          numberClassName={open ? styles.accountNumber : undefined}
          spentClassName={open ? undefined : styles.spent}
        />
      )}
      <CheckoutLink checkoutUrl={checkoutUrl} />
    </section>
  );
}
