"use client";
// The business's logo: a PNG, JPEG or WebP file, checked by the server (the limits shown come from it too).
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { FormError } from "@/app/form-error";
import { trpc } from "@/app/trpc-provider";
import { uploadLogo } from "./actions";
import styles from "./business.module.css";

type Props = { logoUrl: string | null; mayChange: boolean; maxKb: number; maxSide: number };

export function LogoForm({ logoUrl, mayChange, maxKb, maxSide }: Props) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [sending, startSending] = useTransition();
  const remove = trpc.business.removeLogo.useMutation({
    onSuccess: () => {
      setDone("Logo removed.");
      router.refresh();
    },
  });
  return (
    <div className="stack">
      <div className={styles.logoBox}>
        {logoUrl ? (
          <img src={logoUrl} alt="Your logo" className={styles.logo} data-testid="current-logo" />
        ) : (
          <span className="muted">No logo yet</span>
        )}
      </div>
      <p className="muted">
        PNG, JPEG or WebP, at most {maxKb} KB and {maxSide} pixels a side; a wide logo about 40 pixels high reads best. SVG is not accepted:
        it can carry scripts, and it would be shown where your customers pay.
      </p>
      {mayChange && (
        <form
          className={styles.upload}
          onSubmit={(e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            const file = form.get("logo");
            setDone(null);
            // Too big to send at all: said here, before the upload, in the server's words.
            if (file instanceof File && file.size > maxKb * 1024) {
              setError(`The logo must be at most ${maxKb} KB; this one is ${Math.ceil(file.size / 1024)} KB.`);
              return;
            }
            startSending(async () => {
              const answer = await uploadLogo(form);
              setError(answer.error);
              if (!answer.error) {
                setDone("Logo saved. Checkouts and receipts show it from now on.");
                router.refresh();
              }
            });
          }}
        >
          <label>
            Logo file
            <input name="logo" type="file" accept="image/png,image/jpeg,image/webp" required />
          </label>
          <div className="row">
            <button type="submit" disabled={sending}>
              {sending ? "Uploading…" : "Upload logo"}
            </button>
            {logoUrl && (
              <button type="button" className="secondary" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Remove logo
              </button>
            )}
          </div>
        </form>
      )}
      <FormError message={error ?? remove.error?.message} />
      {done && (
        <p role="status" className="muted">
          {done}
        </p>
      )}
    </div>
  );
}
