"use client";
// The exceptions queue: each finding with what was expected and what came, its age, and (for owners and admins) a
// resolve with a note, optionally writing the residue off (the core books it and says when a kind has none).
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { trpc } from "@/app/trpc-provider";
import { lagosDateTime } from "@/app/payment-display";
import { EXCEPTION_KIND_HINT, EXCEPTION_KIND_LABEL, signedNaira } from "@/app/settlement-display";
import type { ExceptionView } from "@/server/reconciliation/exceptions";
import styles from "../books.module.css";
import queue from "./exception-queue.module.css";

function ResolveButton({ exception }: { exception: ExceptionView }) {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState("");
  const [writeOff, setWriteOff] = useState(false);
  const resolve = trpc.reconciliation.resolve.useMutation({
    onSuccess: () => {
      dialog.current?.close();
      router.refresh();
    },
  });
  const errorOf = (field: string) => resolve.error?.data?.errors?.find((f) => f.field === field)?.message;
  return (
    <>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Resolve
      </button>
      <dialog ref={dialog} className={queue.dialog} aria-label={`Resolve ${EXCEPTION_KIND_LABEL[exception.kind]}`}>
        <form
          className={queue.dialogBody}
          onSubmit={(e) => {
            e.preventDefault();
            resolve.mutate({ exceptionId: exception.exceptionId, note, writeOff });
          }}
        >
          <h2>Resolve: {EXCEPTION_KIND_LABEL[exception.kind]}</h2>
          <p className="muted">{EXCEPTION_KIND_HINT[exception.kind]}</p>
          <label>
            What was done about it
            <textarea
              value={note}
              onChange={(e) => setNote(e.target.value)}
              rows={3}
              maxLength={1000}
              placeholder="e.g. Paystack confirmed the fee error and refunded it on 27 Nov"
              aria-invalid={Boolean(errorOf("note"))}
            />
            {errorOf("note") && <span className="field-error">Note {errorOf("note")}</span>}
          </label>
          <label className={styles.check}>
            <input type="checkbox" checked={writeOff} onChange={(e) => setWriteOff(e.target.checked)} />
            Write the difference off (books an adjustment, so it stops sitting in the books)
          </label>
          {errorOf("writeOff") && <p className="form-error">{errorOf("writeOff")}</p>}
          {resolve.error && !resolve.error.data?.errors?.length && <p className="form-error">{resolve.error.message}</p>}
          <div className="row">
            <button type="submit" disabled={resolve.isPending}>
              {resolve.isPending ? "Resolving…" : "Resolve"}
            </button>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Keep open
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

export function ExceptionQueue({ exceptions, canResolve }: { exceptions: ExceptionView[]; canResolve: boolean }) {
  if (exceptions.length === 0)
    return (
      <div className={`card ${styles.empty}`}>
        <p>No exceptions match: everything Owo could check agrees.</p>
      </div>
    );
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid="exceptions-table">
        <thead>
          <tr>
            <th>Exception</th>
            <th className={`num ${styles.wide}`}>Expected</th>
            <th className={`num ${styles.wide}`}>Actual</th>
            <th className={styles.wide}>Age</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {exceptions.map((e) => (
            <tr key={e.exceptionId} data-testid="exception">
              <td>
                <strong title={EXCEPTION_KIND_HINT[e.kind]}>{EXCEPTION_KIND_LABEL[e.kind]}</strong>
                {e.paymentReference && (
                  <a className={`${styles.sub} ${styles.mono}`} href={`/payments/${encodeURIComponent(e.paymentReference)}`}>
                    {e.paymentReference}
                  </a>
                )}
                {e.settlementId && (
                  <a className={`${styles.sub} ${styles.mono}`} href={`/settlements/${encodeURIComponent(e.settlementId)}`}>
                    {e.settlementId}
                  </a>
                )}
                <span className={`${styles.sub} ${styles.narrowOnly}`}>
                  Expected {e.expected === null ? "—" : signedNaira(e.expected)} · actual {e.actual === null ? "—" : signedNaira(e.actual)}
                </span>
                <span className={`${styles.sub} ${styles.narrowOnly}`}>
                  {e.age === 0 ? "Opened today" : `Open ${e.age} d`} · {lagosDateTime(e.openedAt)}
                </span>
              </td>
              <td className={`num ${styles.wide}`}>{e.expected === null ? "—" : signedNaira(e.expected)}</td>
              <td className={`num ${styles.wide}`}>{e.actual === null ? "—" : signedNaira(e.actual)}</td>
              <td className={styles.wide}>
                {e.age === 0 ? "Today" : e.age === 1 ? "1 day" : `${e.age} days`}
                <span className={styles.sub}>{lagosDateTime(e.openedAt)}</span>
              </td>
              <td>
                {e.resolvedAt ? (
                  <>
                    <span className={`badge ${styles.resolved}`}>Resolved</span>
                    {e.note && <span className={styles.sub}>{e.note}</span>}
                  </>
                ) : canResolve ? (
                  <ResolveButton exception={e} />
                ) : (
                  <span className={`badge ${styles.open}`}>Open</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
