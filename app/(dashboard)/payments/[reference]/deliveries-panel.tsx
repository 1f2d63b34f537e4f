"use client";
// The payment's callbacks: each event's delivery to the callbackUrl and webhook endpoints, every attempt, and a re-send.
import type { inferRouterOutputs } from "@trpc/server";
import { trpc } from "@/app/trpc-provider";
import type { AppRouter } from "@/server/trpc/root";
import styles from "./detail.module.css";
import { POLL_MS } from "./poll";
import { PrivateCallbackHint } from "./private-callback-hint";

type Delivery = inferRouterOutputs<AppRouter>["webhooks"]["deliveries"]["byPayment"][number];

const when = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Africa/Lagos",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});
const at = (ms: number) => when.format(new Date(ms));

const STATE: Record<Delivery["status"], string> = { pending: "Retrying", delivered: "Delivered", failed: "Failed", cancelled: "Cancelled" };

function outcome(a: Delivery["attempts"][number]): string {
  if (a.statusCode !== null) return `HTTP ${a.statusCode}`;
  return a.error ?? "no answer";
}

type Props = {
  paymentReference: string;
  canAct: boolean;
  /** Made by the demo seed straight into the database, so no callback was ever due for it. */
  seeded: boolean;
  /** The payment can still be paid, so its main events are still to come. */
  open: boolean;
  hasCallbackUrl: boolean;
};

/** Why the list is empty, as things stand now: who would be told, and whether anything is still to come. */
function nothingSent({ seeded, open, hasCallbackUrl }: Props, hasEndpoints: boolean): string {
  if (seeded) return "None: this is sample data the demo seed wrote straight into the database, so no callback was sent for it.";
  if (!hasCallbackUrl && !hasEndpoints)
    return "None: this payment has no callback URL and you have no webhook endpoint turned on, so no one is told of its events. Add an endpoint on Developers to hear of the next ones.";
  const told =
    hasCallbackUrl && hasEndpoints
      ? "your callback URL and webhook endpoints are"
      : hasCallbackUrl
        ? "your callback URL is"
        : "your webhook endpoints are";
  return open
    ? `Nothing sent yet: ${told} told when the payment succeeds, fails, expires or money arrives late.`
    : `Nothing sent yet: ${told} told of each of this payment's events as it happens; every delivery shows here.`;
}

export function DeliveriesPanel(props: Props) {
  const { paymentReference, canAct } = props;
  const utils = trpc.useUtils();
  const deliveries = trpc.webhooks.deliveries.byPayment.useQuery({ paymentReference }, { refetchInterval: POLL_MS });
  // Unknown (not loaded) counts as "has endpoints": the panel never claims no one is told when it cannot know.
  const endpoints = trpc.webhooks.endpoints.list.useQuery();
  const resend = trpc.webhooks.deliveries.resend.useMutation({
    onSettled: () => utils.webhooks.deliveries.byPayment.invalidate({ paymentReference }),
  });
  const list = deliveries.data ?? [];

  return (
    <section className="card">
      <h2>Callbacks</h2>
      {deliveries.isError && <p className="form-error">Could not load callbacks: {deliveries.error.message}</p>}
      {!deliveries.isError && list.length === 0 && (
        <p className="muted" data-testid="no-deliveries">
          {deliveries.isPending || endpoints.isPending ? "Loading…" : nothingSent(props, endpoints.data?.some((e) => e.enabled) ?? true)}
        </p>
      )}
      <PrivateCallbackHint deliveries={list} />
      <ul className={styles.deliveries} data-testid="deliveries">
        {list.map((d) => (
          <li key={d.id} className={styles.delivery}>
            <div className={styles.deliveryHead}>
              <span className="mono">{d.event}</span>
              <span className={`${styles.deliveryState} ${styles[`delivery_${d.status}`]}`}>{STATE[d.status]}</span>
            </div>
            <p className={styles.deliveryUrl}>
              {d.destination === "callback" ? "callbackUrl" : "Webhook endpoint"} · <span className="mono">{d.url}</span>
            </p>
            <details>
              <summary>
                {d.attemptCount === 1 ? "1 attempt" : `${d.attemptCount} attempts`}
                {d.nextAttemptAt !== null ? ` · next ${at(d.nextAttemptAt)}` : ""}
              </summary>
              <ol className={styles.attempts}>
                {d.attempts.map((a, i) => (
                  <li key={i}>
                    <span>{at(a.attemptedAt)}</span> <strong>{outcome(a)}</strong> <span className="muted">{a.latencyMs} ms</span>
                    {a.responseSnippet && <code className={styles.snippet}>{a.responseSnippet}</code>}
                  </li>
                ))}
              </ol>
            </details>
            {canAct && (
              <button
                type="button"
                className="secondary"
                onClick={() => resend.mutate({ deliveryId: d.id })}
                disabled={resend.isPending && resend.variables?.deliveryId === d.id}
              >
                Re-send
              </button>
            )}
          </li>
        ))}
      </ul>
      {resend.isError && <p className="form-error">{resend.error.message}</p>}
    </section>
  );
}
