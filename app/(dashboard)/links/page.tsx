import type { Metadata } from "next";
import { CHANNEL_LABEL, naira } from "@/app/payment-display";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import type { LinkView } from "@/server/links/links";
import { CopyUrl } from "./link-controls";
import { LinkStateBadge } from "./link-state";
import { NewLinkForm } from "./new-link-form";
import styles from "./links.module.css";

export const metadata: Metadata = { title: "Payment links" };

function amountOf(link: LinkView): string {
  if (link.amount) return naira(link.amount);
  return link.minAmount && link.maxAmount ? `${naira(link.minAmount)} – ${naira(link.maxAmount)}` : "Customer enters";
}

export default async function LinksPage() {
  const { caller, api } = await signedInPage();
  // Signed out (or removed from the team): the layout is sending the visitor to sign in.
  const [links, defaults] = await Promise.all([api.links.list(), api.links.defaults()]);
  const mayChange = can(caller, "change");
  return (
    <section>
      <div className={styles.header}>
        <h1>Payment links</h1>
        <p className="muted">Share a link or its QR code; customers pay by USSD or bank transfer without any code on your side.</p>
      </div>
      {mayChange && (
        <div className="card">
          <h2 style={{ marginTop: 0 }}>Create a payment link</h2>
          <NewLinkForm defaults={{ callbackUrl: defaults.defaultCallbackUrl, redirectUrl: defaults.defaultRedirectUrl }} />
        </div>
      )}
      <h2>Your links</h2>
      {links.length === 0 ? (
        <p className="muted">No payment links yet{mayChange ? ": create one above." : "."}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table>
            <thead>
              <tr>
                <th>Title</th>
                <th>Amount</th>
                <th>Channels</th>
                <th>Status</th>
                <th className="num">Paid</th>
                <th className="num">Collected</th>
                <th>Share</th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id}>
                  <td>
                    <a href={`/links/${link.id}`}>{link.title}</a>
                    {link.singleUse && <div className="muted">Single use</div>}
                  </td>
                  <td>{amountOf(link)}</td>
                  <td>{link.channels.map((c) => CHANNEL_LABEL[c]).join(", ")}</td>
                  <td>
                    <LinkStateBadge state={link.state} />
                  </td>
                  <td className="num">{link.successfulCount}</td>
                  <td className="num">{naira(link.collected)}</td>
                  <td style={{ minWidth: 260 }}>
                    <CopyUrl url={link.url} label={`URL of ${link.title}`} />
                    <a href={`/links/${link.id}`} aria-label={`QR code of ${link.title}`}>
                      QR code
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
