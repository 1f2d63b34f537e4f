"use client";
// Webhook endpoints: add, disable or enable, delete; each one's recent deliveries, which can be sent again.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { lagosDateTime } from "@/app/payment-display";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import styles from "./developers.module.css";

type Endpoint = { id: string; url: string; description: string; enabled: boolean; disabledReason: string | null; createdAt: number };

export function AddEndpoint() {
  const router = useRouter();
  const add = trpc.webhooks.endpoints.add.useMutation({ onSuccess: () => router.refresh() });
  const urlError = add.error?.data?.errors.find((e) => e.field === "url");
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        const formElement = e.currentTarget;
        const form = new FormData(formElement);
        add.mutate(
          { url: String(form.get("url")), description: String(form.get("description")) },
          { onSuccess: () => formElement.reset() },
        );
      }}
    >
      <div className={styles.formRow}>
        <label>
          Endpoint URL
          <input name="url" type="url" required placeholder="https://shop.example.ng/owo/webhooks" aria-invalid={Boolean(urlError)} />
        </label>
        <label>
          Description (optional)
          <input name="description" maxLength={200} placeholder="Order service" />
        </label>
        <button type="submit" disabled={add.isPending}>
          {add.isPending ? "Adding…" : "Add endpoint"}
        </button>
      </div>
      {urlError ? <p className="field-error">URL {urlError.message}</p> : <FormError message={add.error?.message} />}
    </form>
  );
}

export function EndpointCard({ endpoint, mayChange }: { endpoint: Endpoint; mayChange: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const refresh = { onSuccess: () => router.refresh() };
  const disable = trpc.webhooks.endpoints.disable.useMutation(refresh);
  const enable = trpc.webhooks.endpoints.enable.useMutation(refresh);
  const remove = trpc.webhooks.endpoints.delete.useMutation(refresh);
  const busy = disable.isPending || enable.isPending || remove.isPending;
  return (
    <div className={styles.endpoint} data-testid="endpoint">
      <div className={styles.endpointHead}>
        <div>
          <div className={styles.url}>{endpoint.url}</div>
          <div className="muted">
            {endpoint.description && `${endpoint.description} · `}
            {endpoint.enabled ? "Enabled" : `Disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`}
          </div>
        </div>
        <div className="row">
          <button type="button" className={`secondary ${styles.small}`} onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? "Hide deliveries" : "Recent deliveries"}
          </button>
          {mayChange &&
            (endpoint.enabled ? (
              <button
                type="button"
                className={`secondary ${styles.small}`}
                disabled={busy}
                onClick={() => disable.mutate({ endpointId: endpoint.id })}
              >
                Disable
              </button>
            ) : (
              <button
                type="button"
                className={`secondary ${styles.small}`}
                disabled={busy}
                onClick={() => enable.mutate({ endpointId: endpoint.id })}
              >
                Enable
              </button>
            ))}
          {mayChange && (
            <button
              type="button"
              className={`danger ${styles.small}`}
              disabled={busy}
              onClick={() =>
                window.confirm(`Delete ${endpoint.url}? Deliveries still queued for it are cancelled.`) &&
                remove.mutate({ endpointId: endpoint.id })
              }
            >
              Delete
            </button>
          )}
        </div>
      </div>
      <FormError message={(disable.error ?? enable.error ?? remove.error)?.message} />
      {open && <Deliveries endpointId={endpoint.id} mayChange={mayChange && endpoint.enabled} />}
    </div>
  );
}

function Deliveries({ endpointId, mayChange }: { endpointId: string; mayChange: boolean }) {
  const list = trpc.webhooks.deliveries.byEndpoint.useQuery({ endpointId }, { refetchInterval: 10_000 });
  const resend = trpc.webhooks.deliveries.resend.useMutation({ onSuccess: () => list.refetch() });
  if (list.isPending) return <p className="muted">Loading deliveries…</p>;
  if (list.error) return <FormError message={list.error.message} />;
  if (list.data.length === 0) return <p className="muted">Nothing sent to this endpoint yet.</p>;
  return (
    <div className={styles.tableWrap}>
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Event</th>
            <th>Payment</th>
            <th>Status</th>
            <th className="num">Attempts</th>
            <th>Last answer</th>
            {mayChange && <th />}
          </tr>
        </thead>
        <tbody>
          {list.data.slice(0, 20).map((d) => (
            <tr key={d.id}>
              <td>{lagosDateTime(new Date(d.createdAt).toISOString())}</td>
              <td className="mono">{d.event}</td>
              <td className="mono">{d.paymentReference}</td>
              <td>{d.status}</td>
              <td className="num">{d.attemptCount}</td>
              <td>{d.lastStatusCode ?? d.lastError ?? "—"}</td>
              {mayChange && (
                <td>
                  <button
                    type="button"
                    className={`secondary ${styles.small}`}
                    disabled={resend.isPending}
                    onClick={() => resend.mutate({ deliveryId: d.id })}
                  >
                    Send again
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <FormError message={resend.error?.message} />
    </div>
  );
}
