"use client";
// The Providers page's controls: connect (credentials, priority, base URL where the operator allows it), test
// connection, disconnect, create live keys (shown once), and the live-mode switch.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { CopyButton } from "@/app/copy-button";
import { FormError } from "@/app/form-error";
import { lagosDateTime } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import styles from "../developers/developers.module.css";
import { AgreedFees } from "./agreed-fees";
import { ForwardingUrl, RecentForwards } from "./forwarding";

type Provider = inferRouterOutputs<AppRouter>["providers"]["list"]["providers"][number];
type Forward = inferRouterOutputs<AppRouter>["providers"]["forwards"]["forwards"][number];

const CREDENTIALS: Record<string, { name: string; label: string }[]> = {
  paystack: [{ name: "secretKey", label: "Secret key (sk_live_… or sk_test_…)" }],
  flutterwave: [
    { name: "secretKey", label: "Secret key (FLWSECK-…)" },
    { name: "secretHash", label: "Secret hash (the one you set on Flutterwave's webhook page)" },
  ],
  seerbit: [
    { name: "publicKey", label: "Public key" },
    { name: "secretKey", label: "Secret key" },
  ],
};

export function ConnectProvider({ baseUrlOffered }: { baseUrlOffered: boolean }) {
  const router = useRouter();
  const [provider, setProvider] = useState("paystack");
  const connect = trpc.providers.connect.useMutation({ onSuccess: () => router.refresh() });
  const fieldError = (field: string) => connect.error?.data?.errors.find((e) => e.field === field)?.message;
  return (
    <form
      className="card stack"
      data-testid="connect-provider"
      onSubmit={(e) => {
        e.preventDefault();
        const formElement = e.currentTarget;
        const form = new FormData(formElement);
        const credentials = Object.fromEntries((CREDENTIALS[provider] ?? []).map((c) => [c.name, String(form.get(c.name) ?? "")]));
        const priority = String(form.get("priority") ?? "");
        const baseUrl = String(form.get("baseUrl") ?? "");
        connect.mutate(
          { provider, credentials, ...(priority ? { priority: Number(priority) } : {}), ...(baseUrl ? { baseUrl } : {}) },
          { onSuccess: () => formElement.reset() },
        );
      }}
    >
      <label>
        Provider
        <select name="provider" value={provider} onChange={(e) => setProvider(e.target.value)}>
          <option value="paystack">Paystack</option>
          <option value="flutterwave">Flutterwave</option>
          <option value="seerbit">SeerBit</option>
        </select>
      </label>
      {(CREDENTIALS[provider] ?? []).map((c) => (
        <label key={`${provider}-${c.name}`}>
          {c.label}
          <input name={c.name} type="password" autoComplete="off" required aria-invalid={Boolean(fieldError(c.name))} />
          {fieldError(c.name) && <span className="field-error">{fieldError(c.name)}</span>}
        </label>
      ))}
      <label>
        Priority (1 is tried first; empty: after the others)
        <input name="priority" type="number" min={1} max={99} />
      </label>
      {baseUrlOffered && (
        <label>
          Base URL (a staging host or test double; empty: the provider&apos;s public API)
          <input name="baseUrl" type="url" placeholder="http://127.0.0.1:4010" />
          {fieldError("baseUrl") && <span className="field-error">{fieldError("baseUrl")}</span>}
        </label>
      )}
      <div className="row">
        <button type="submit" disabled={connect.isPending}>
          {connect.isPending ? "Connecting…" : "Connect"}
        </button>
      </div>
      {connect.data && (
        <p role="status">
          Connected as <code>{connect.data.providerId}</code>. Paste its notice URL into {connect.data.provider}&apos;s webhook settings.
        </p>
      )}
      <FormError message={connect.error && !connect.error.data?.errors.length ? connect.error.message : undefined} />
    </form>
  );
}

export function ProviderCard({ provider: p, forwards }: { provider: Provider; forwards: Forward[] }) {
  const router = useRouter();
  const refresh = { onSuccess: () => router.refresh() };
  const test = trpc.providers.test.useMutation(refresh);
  const disconnect = trpc.providers.disconnect.useMutation(refresh);
  const setRefunds = trpc.providers.setRefunds.useMutation(refresh);
  return (
    <div className={`card ${styles.endpoint}`} data-testid={`provider-${p.provider}`}>
      <div className={styles.endpointHead}>
        <strong>
          {p.priority}. {p.provider}
          {p.providerTestMode && <span className="muted"> · provider test mode</span>}
        </strong>
        <span data-testid="circuit" className={p.circuit === "resting" ? "field-error" : "muted"}>
          {p.circuit === "resting"
            ? `Resting after repeated failures until ${lagosDateTime(new Date(p.restingUntil ?? 0).toISOString())}`
            : "Available"}
        </span>
      </div>
      <dl className={styles.keyGrid}>
        <dt>Credentials</dt>
        <dd className="mono">
          {Object.entries(p.credentialsLast4)
            .map(([k, v]) => `${k} …${v}`)
            .join(" · ")}
        </dd>
        <dt>Notice URL</dt>
        <dd>
          <code data-testid="notice-url">{p.noticeUrl}</code>
          <CopyButton value={p.noticeUrl} />
        </dd>
        {p.noticeUrlWarning && (
          <>
            <dt>Warning</dt>
            <dd className="field-error">{p.noticeUrlWarning}</dd>
          </>
        )}
        <dt>API</dt>
        <dd className="mono">{p.baseUrl}</dd>
        <dt>Last success</dt>
        <dd data-testid="last-success">{p.lastSuccessAt ? lagosDateTime(new Date(p.lastSuccessAt).toISOString()) : "never"}</dd>
        <dt>Last failure</dt>
        <dd>{p.lastFailureAt ? `${lagosDateTime(new Date(p.lastFailureAt).toISOString())}: ${p.lastFailure ?? ""}` : "none"}</dd>
        <dt>Agreed fees</dt>
        <dd>
          <AgreedFees providerId={p.providerId} provider={p.provider} fees={p.fees} />
        </dd>
        <dt>Forwarding</dt>
        <dd>
          <ForwardingUrl providerId={p.providerId} provider={p.provider} forwardUrl={p.forwardUrl} />
        </dd>
        <dt>Recent forwards</dt>
        <dd>
          <RecentForwards forwards={forwards} />
        </dd>
        {p.refundsNeedApproval && (
          <>
            <dt>Refunds</dt>
            <dd>
              <label>
                <input
                  type="checkbox"
                  data-testid="refunds-enabled"
                  checked={p.refundsEnabled}
                  disabled={setRefunds.isPending}
                  onChange={(e) => setRefunds.mutate({ providerId: p.providerId, enabled: e.target.checked })}
                />{" "}
                {p.provider} approved refunds through its API for this account
              </label>
              {!p.refundsEnabled && <span className="muted"> · until then, refund these payments at {p.provider}</span>}
            </dd>
          </>
        )}
      </dl>
      <div className="row">
        <button className="secondary" disabled={test.isPending} onClick={() => test.mutate({ providerId: p.providerId })}>
          {test.isPending ? "Testing…" : "Test connection"}
        </button>
        <button
          className="secondary"
          disabled={disconnect.isPending}
          onClick={() => {
            if (window.confirm(`Disconnect ${p.provider}? Live payments it issued keep their history.`))
              disconnect.mutate({ providerId: p.providerId });
          }}
        >
          Disconnect
        </button>
      </div>
      {test.data && (
        <p role="status" data-testid="test-result" className={test.data.ok ? undefined : "field-error"}>
          {test.data.ok ? `Connection works: ${test.data.message}` : `Connection failed: ${test.data.message}`}
        </p>
      )}
    </div>
  );
}

export function LiveKeys({ exists }: { exists: boolean }) {
  const router = useRouter();
  const create = trpc.keys.createLive.useMutation();
  if (create.data) {
    return (
      <div className={styles.once} data-testid="live-keys">
        <strong>Your live keys, shown this once: store the secrets now.</strong>
        <span>
          Public key <code>{create.data.publicKey}</code>
        </span>
        <span>
          Secret key <span className={styles.secret}>{create.data.secretKey}</span> <CopyButton value={create.data.secretKey} />
        </span>
        <span>
          Webhook secret <span className={styles.secret}>{create.data.webhookSecret}</span> <CopyButton value={create.data.webhookSecret} />
        </span>
        <button className="secondary" onClick={() => router.refresh()}>
          Done
        </button>
      </div>
    );
  }
  if (exists) return <p className="muted">Live keys exist; roll them from Developers while in live mode.</p>;
  return (
    <div className="stack">
      <button onClick={() => create.mutate()} disabled={create.isPending}>
        Create live keys
      </button>
      <FormError message={create.error?.message} />
    </div>
  );
}
