export default function PaymentNotFound() {
  return (
    <section className="card">
      <h1>No such payment</h1>
      <p className="muted">
        There is no payment with this reference for this merchant in the current mode. References are case-sensitive; test and live payments
        are kept apart.
      </p>
      <a href="/payments" className="button secondary">
        All payments
      </a>
    </section>
  );
}
