import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { CHANNEL_LABEL, channelLabel, lagosDateTime, naira, STATUS_LABEL } from "@/app/payment-display";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import { ActiveToggle, CopyUrl } from "../link-controls";
import { LinkStateBadge } from "../link-state";
import styles from "../links.module.css";

export const metadata: Metadata = { title: "Payment link" };

export default async function LinkPage({ params }: { params: Promise<{ id: string }> }) {
  const { caller, api } = await signedInPage();
  const { id } = await params;
  const detail = await api.links.byId({ id }).catch((e: unknown) => {
    if (e instanceof TRPCError && e.code === "NOT_FOUND") return null;
    throw e;
  });
  if (!detail) notFound();
  const { link, qrSvg, payments } = detail;
  const amount = link.amount
    ? naira(link.amount)
    : `${naira(link.minAmount ?? "0")} – ${naira(link.maxAmount ?? "0")}, entered by the customer`;
  return (
    <section className="stack">
      <p>
        <a href="/links">← Payment links</a>
      </p>
      <div className="row">
        <h1 style={{ margin: 0 }}>{link.title}</h1>
        <LinkStateBadge state={link.state} />
      </div>
      <div className={`card ${styles.share}`}>
        {/* Drawn by the server from our own URL: no user text reaches the SVG. */}
        <div className={styles.qr} role="img" aria-label={`QR code for ${link.url}`} dangerouslySetInnerHTML={{ __html: qrSvg }} />
        <div className="stack">
          <CopyUrl url={link.url} />
          <div className="row">
            <a className="button secondary" href={link.url} target="_blank" rel="noreferrer">
              Open the pay page
            </a>
            <a
              className="button secondary"
              href={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
              download={`owo-link-${link.slug}.svg`}
            >
              Download QR code
            </a>
          </div>
          <dl className={styles.facts}>
            <dt>Amount</dt>
            <dd>{amount}</dd>
            <dt>Channels</dt>
            <dd>{link.channels.map((c) => CHANNEL_LABEL[c]).join(", ")}</dd>
            <dt>Use</dt>
            <dd>{link.singleUse ? "Single use: closes after the first successful payment" : "Reusable"}</dd>
            <dt>Paid</dt>
            <dd>
              {link.successfulCount} payment{link.successfulCount === 1 ? "" : "s"}, {naira(link.collected)} collected
            </dd>
            <dt>Callback URL</dt>
            <dd className="mono">{link.callbackUrl}</dd>
            <dt>Redirect URL</dt>
            <dd className="mono">{link.redirectUrl}</dd>
            <dt>Created</dt>
            <dd>{lagosDateTime(link.createdAt)}</dd>
          </dl>
          {can(caller, "change") && <ActiveToggle id={link.id} active={link.active} />}
        </div>
      </div>
      {link.description && <p className="muted">{link.description}</p>}
      <h2>Latest payments through this link</h2>
      {payments.length === 0 ? (
        <p className="muted">No payments yet.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table>
            <thead>
              <tr>
                <th>Reference</th>
                <th>Customer</th>
                <th>Channel</th>
                <th>Status</th>
                <th className="num">Amount</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.paymentReference}>
                  <td className="mono">
                    <a href={`/payments/${encodeURIComponent(p.paymentReference)}`}>{p.paymentReference}</a>
                  </td>
                  <td>{p.fullName}</td>
                  <td>{channelLabel(p.paymentType)}</td>
                  <td>
                    <span className={`badge badge-${p.status}`}>{STATUS_LABEL[p.status]}</span>
                  </td>
                  <td className="num">{naira(p.amount)}</td>
                  <td>{lagosDateTime(p.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
