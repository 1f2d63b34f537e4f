"use client";
// Rolling the API secret key, and revealing or rolling the callback signing secret.
import { useRouter } from "next/navigation";
import { CopyButton } from "@/app/copy-button";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import { RollDialog, ShownOnce } from "./roll-dialog";
import styles from "./developers.module.css";

export function RollSecretKey() {
  const router = useRouter();
  const roll = trpc.keys.roll.useMutation({ onSuccess: () => router.refresh() });
  return (
    <div className="stack">
      <div className="row">
        <RollDialog secret="secretKey" roll={roll} />
      </div>
      {roll.data && (
        <>
          <ShownOnce secret={roll.data.secretKey} what="secret key" />
          <div className="row">
            <CopyButton value={roll.data.secretKey} label="Copy secret key" />
          </div>
        </>
      )}
      <FormError message={roll.error?.message} />
    </div>
  );
}

export function SigningSecret() {
  const reveal = trpc.webhooks.secret.reveal.useMutation();
  const roll = trpc.webhooks.secret.roll.useMutation({ onSuccess: () => reveal.reset() });
  const shown = roll.data?.secret ?? reveal.data?.secret ?? null;
  return (
    <div className="stack">
      <div className="row">
        <button
          type="button"
          className="secondary"
          disabled={reveal.isPending}
          onClick={() => {
            if (!shown) return reveal.mutate();
            reveal.reset();
            roll.reset();
          }}
        >
          {shown ? "Hide" : "Reveal signing secret"}
        </button>
        <RollDialog secret="signingSecret" roll={roll} />
      </div>
      {shown && (
        <div className="row">
          <code className={styles.secret} data-testid="signing-secret">
            {shown}
          </code>
          <CopyButton value={shown} label="Copy" />
        </div>
      )}
      <FormError message={(reveal.error ?? roll.error)?.message} />
    </div>
  );
}
