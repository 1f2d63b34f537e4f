import { merchantsOf } from "@/server/auth/callers";
import { can } from "@/server/auth/permissions";
import { settings } from "@/server/settings";
import { signedInPage } from "@/server/trpc/page-caller";
import { TrpcProvider } from "@/app/trpc-provider";
import { FreshCodeDialog } from "./account/fresh-code";
import { MerchantSwitcher, ModeSwitch, SignOutButton } from "./session-controls";

const NAV = [
  ["/dashboard", "Overview"],
  ["/payments", "Payments"],
  ["/payments/new", "New payment"],
  ["/balances", "Balances"],
  ["/settlements", "Settlements"],
  ["/reconciliation", "Reconciliation"],
  ["/links", "Payment links"],
  ["/developers", "Developers"],
  ["/business", "Business"],
  ["/providers", "Providers"],
  ["/team", "Team"],
  ["/account", "Account"],
  ["/account/sessions", "Sessions"],
  ["/docs", "API docs"],
] as const;

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { caller } = await signedInPage();
  const merchants = await merchantsOf(caller.userId);
  // The outbox is offered only while mail cannot leave this Owo, and only to owners.
  const nav = !settings().smtpUrl && can(caller, "mail.read") ? [...NAV, ["/mail", "Mail sent by this Owo"] as const] : NAV;
  return (
    <div className="shell">
      <aside className="sidebar">
        <p className="brand">Owo</p>
        <nav>
          {nav.map(([href, label]) => (
            <a key={href} href={href}>
              {label}
            </a>
          ))}
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <div className="merchant">
            <strong data-testid="merchant-name">{caller.merchantName}</strong>
            <MerchantSwitcher current={caller.merchantId} merchants={merchants.map((m) => ({ id: m.merchantId, name: m.name }))} />
            <span
              className={`mode-badge mode-${caller.mode}`}
              title={caller.liveAvailable ? "" : "No bank-side provider is connected yet, so only test mode exists."}
            >
              {caller.mode === "test" ? "Test mode" : "Live"}
            </span>
            {caller.liveAvailable && can(caller, "mode.live") && <ModeSwitch mode={caller.mode} />}
          </div>
          <div className="who">
            <span className="muted">
              {caller.email} · {caller.role}
            </span>
            <SignOutButton />
          </div>
        </header>
        <main className="content">
          {!caller.emailVerified && (
            <p className="notice" role="note" data-testid="verify-banner">
              Confirm your e-mail address ({caller.email}) with the link we mailed you: until then you cannot invite people, connect
              bank-side providers or go live. <a href="/account">Send it again</a>
            </p>
          )}
          <TrpcProvider>
            {children}
            <FreshCodeDialog />
          </TrpcProvider>
        </main>
      </div>
    </div>
  );
}
