// The developer docs: public, no sign-in, rendered on the server.
import type { Metadata } from "next";
import styles from "./docs.module.css";

export const metadata: Metadata = { title: { default: "Developer docs", template: "%s · Owo docs" } };

const SECTIONS = [
  ["/docs", "Quick start"],
  ["/docs/client", "Typed client"],
  ["/docs/callbacks", "Callbacks"],
  ["/docs/refunds", "Cancel and refunds"],
  ["/docs/providers", "Going live"],
  ["/docs/seerbit", "Coming from SeerBit"],
  ["/docs/errors", "Errors"],
  ["/docs/limits", "Limits and versions"],
  ["/docs/postgres", "Running on PostgreSQL"],
  ["/docs/operations", "Running in production"],
] as const;

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="shell">
      <aside className="sidebar">
        <p className="brand">Owo</p>
        <p className={styles.kicker}>Developer docs</p>
        <nav aria-label="Docs sections">
          {SECTIONS.map(([href, label]) => (
            <a key={href} href={href}>
              {label}
            </a>
          ))}
        </nav>
        <div className={styles.aside}>
          <a href="/api/v2/openapi.json">OpenAPI 3.1 document</a>
          <a href="/dashboard">Dashboard</a>
        </div>
      </aside>
      <main className={styles.doc}>{children}</main>
    </div>
  );
}
