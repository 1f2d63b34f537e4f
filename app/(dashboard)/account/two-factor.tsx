"use client";
// Two-factor sign-in on the Account page: enrol by QR code and a typed code, recovery codes shown once, renew, turn off.
import { useState } from "react";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="stack" role="status">
      <p>
        <strong>Your recovery codes, shown only now.</strong> Each signs you in once if you lose your phone. Keep them somewhere safe, apart
        from your password.
      </p>
      <ol data-testid="recovery-codes" style={{ fontFamily: "monospace", columns: 2 }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
    </div>
  );
}

/** A typed code and a button, for actions that need a fresh code. */
function CodeForm({ label, pending, onCode }: { label: string; pending: boolean; onCode: (code: string) => void }) {
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onCode(String(new FormData(e.currentTarget).get("code") ?? ""));
        e.currentTarget.reset();
      }}
    >
      <label>
        Code from your app
        <input name="code" inputMode="numeric" autoComplete="one-time-code" required />
      </label>
      <button type="submit" className="secondary" disabled={pending}>
        {label}
      </button>
    </form>
  );
}

export function TwoFactorSettings() {
  const utils = trpc.useUtils();
  const status = trpc.account.twoFactor.status.useQuery();
  const refresh = () => utils.account.twoFactor.status.invalidate();
  const start = trpc.account.twoFactor.start.useMutation();
  const confirm = trpc.account.twoFactor.confirm.useMutation({ onSuccess: refresh });
  const renew = trpc.account.twoFactor.renewRecoveryCodes.useMutation({ onSuccess: refresh });
  const disable = trpc.account.twoFactor.disable.useMutation({ onSuccess: refresh });
  const [showSecret, setShowSecret] = useState(false);

  if (!status.data) return <p className="muted">Loading…</p>;
  if (confirm.data) return <RecoveryCodes codes={confirm.data.recoveryCodes} />;
  if (status.data.enabled) {
    return (
      <div className="stack">
        <p>
          Two-factor sign-in is <strong>on</strong>. {status.data.recoveryCodesLeft} of 10 recovery codes left.
        </p>
        {renew.data && <RecoveryCodes codes={renew.data.recoveryCodes} />}
        <CodeForm label="Make new recovery codes" pending={renew.isPending} onCode={(code) => renew.mutate({ code })} />
        <FormError message={renew.error?.message} />
        {status.data.requiredBy.length === 0 ? (
          <>
            <CodeForm label="Turn two-factor sign-in off" pending={disable.isPending} onCode={(code) => disable.mutate({ code })} />
            <FormError message={disable.error?.message} />
          </>
        ) : (
          <p className="muted">{status.data.requiredBy.join(", ")} requires two-factor sign-in, so it stays on.</p>
        )}
      </div>
    );
  }
  if (!start.data) {
    return (
      <div className="stack">
        <p>
          Two-factor sign-in is <strong>off</strong>. With it on, signing in needs your password and a code from an authenticator app on
          your phone.
        </p>
        <button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
          Set up two-factor sign-in
        </button>
        <FormError message={start.error?.message} />
      </div>
    );
  }
  return (
    <div className="stack">
      <p>1. Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).</p>
      {/* Our own SVG, drawn by the qrcode package from the otpauth:// address: no markup from anyone's input. */}
      <div
        aria-label="QR code for your authenticator app"
        role="img"
        style={{ width: 200 }}
        dangerouslySetInnerHTML={{ __html: start.data.qrSvg }}
      />
      <p className="muted">
        Cannot scan?{" "}
        <button type="button" className="secondary" onClick={() => setShowSecret(true)}>
          Show the key to type in
        </button>
        {showSecret && (
          <code data-testid="totp-secret" style={{ display: "block", marginTop: 8, overflowWrap: "anywhere" }}>
            {start.data.secret}
          </code>
        )}
      </p>
      <p>2. Type the 6-digit code the app shows.</p>
      <CodeForm label="Turn on two-factor sign-in" pending={confirm.isPending} onCode={(code) => confirm.mutate({ code })} />
      <FormError message={confirm.error?.message} />
    </div>
  );
}
