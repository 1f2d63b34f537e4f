import styles from "./checkout.module.css";

export default function CheckoutNotFound() {
  return (
    <main className={styles.screen}>
      <div className={styles.card}>
        <p className={styles.merchant}>Checkout not found</p>
        <p>We could not find a payment for this link. It may have been mistyped or cut short when it was shared.</p>
        <p className="muted">Go back to the shop you were paying and start the payment again. No money has been taken by this page.</p>
        <p className={styles.footer}>Secured by Owo</p>
      </div>
    </main>
  );
}
