import styles from "./pay.module.css";

export default function PayLinkNotFound() {
  return (
    <main className={styles.page}>
      <div className={`${styles.card} ${styles.notice}`}>
        <p className={styles.mark} aria-hidden>
          ?
        </p>
        <h1>This payment link is not available</h1>
        <p className="muted">
          It may have been switched off by the merchant, or the address may be mistyped. Ask the merchant for a new link.
        </p>
      </div>
      <p className={styles.footer}>
        Secured by <strong>Owo</strong>
      </p>
    </main>
  );
}
