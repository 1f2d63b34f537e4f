// Bank-side providers (owners and admins): connect one, test it, copy its notice URL, watch its health; live keys.
import type { Metadata } from "next";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import { ConnectProvider, LiveKeys, ProviderCard } from "./providers-forms";

export const metadata: Metadata = { title: "Providers" };

export default async function ProvidersPage() {
  const { caller, api } = await signedInPage();
  if (!can(caller, "providers.manage")) {
    return (
      <section>
        <h1>Providers</h1>
        <p className="muted">Only owners and admins (with a confirmed e-mail address) connect bank-side providers.</p>
      </section>
    );
  }
  const { providers, baseUrlOffered } = await api.providers.list();
  const hasLiveKeys = (await api.keys.list()).some((k) => k.mode === "live");
  const forwards = await Promise.all(providers.map((p) => api.providers.forwards({ providerId: p.providerId })));
  return (
    <section className="stack">
      <h1>Providers</h1>
      <p className="muted">
        Live payments are issued by your own accounts at Paystack, Flutterwave or SeerBit, in the priority order below: when one does not
        answer, the next one issues. Test mode is always served by the sandbox bank. <a href="/docs/providers">How to go live</a>
      </p>
      {providers.length === 0 ? (
        <p className="card" data-testid="no-providers">
          No provider is connected yet, so live mode is not available.
        </p>
      ) : (
        <div className="stack" data-testid="providers">
          {providers.map((p, i) => (
            <ProviderCard key={p.providerId} provider={p} forwards={forwards[i]?.forwards ?? []} />
          ))}
        </div>
      )}
      <h2>Connect a provider</h2>
      <ConnectProvider baseUrlOffered={baseUrlOffered} />
      {providers.length > 0 && (
        <>
          <h2>Live keys</h2>
          <LiveKeys exists={hasLiveKeys} />
        </>
      )}
    </section>
  );
}
