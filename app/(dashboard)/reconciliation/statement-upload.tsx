"use client";
// Bank statement upload: the CSV (date,amount,reference,narration) previewed first, each line with the settlement it
// would confirm, then imported. Both are the core's import; the preview is rolled back.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { trpc } from "@/app/trpc-provider";
import { lagosDay, signedNaira } from "@/app/settlement-display";
import type { StatementLineView } from "@/server/reconciliation/bank-statements";
import styles from "../books.module.css";

const MATCH_LABEL: Record<StatementLineView["match"], [label: string, tone: string, title: string]> = {
  matched: ["Matched", "matched", "Confirms the settlement below"],
  unmatched: ["No settlement", "open", "Names a provider but matches no payout: flagged for you to look at"],
  other_income: ["Other income", "neutral", "Names no provider: not matched"],
  debit: ["Debit", "neutral", "Debits are kept, not matched"],
};

function Lines({ lines, testId }: { lines: StatementLineView[]; testId: string }) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} data-testid={testId}>
        <thead>
          <tr>
            <th>Line</th>
            <th className={`num ${styles.wide}`}>Amount</th>
            <th>Match</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => {
            const [label, tone, title] = MATCH_LABEL[l.match];
            return (
              <tr key={i} data-testid="statement-line">
                <td>
                  {lagosDay(`${l.date}T12:00:00+01:00`)}
                  <strong className={styles.narrowOnly}>{signedNaira(l.amount)}</strong>
                  <span className={`${styles.sub} ${styles.mono}`}>{[l.reference, l.narration].filter(Boolean).join(" · ")}</span>
                </td>
                <td className={`num ${styles.wide}`}>{signedNaira(l.amount)}</td>
                <td>
                  <span className={`badge ${styles[tone]}`} title={title}>
                    {label}
                  </span>
                  {l.settlementId && (
                    <a className={`${styles.sub} ${styles.mono}`} href={`/settlements/${encodeURIComponent(l.settlementId)}`}>
                      {l.settlementId}
                    </a>
                  )}
                  {l.duplicate && <span className={styles.sub}>Already imported: ignored</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function StatementUpload() {
  const router = useRouter();
  const [accountNumber, setAccountNumber] = useState("");
  const [csv, setCsv] = useState("");
  const [fileName, setFileName] = useState("");
  const preview = trpc.reconciliation.previewStatement.useMutation();
  const imported = trpc.reconciliation.importStatement.useMutation({ onSuccess: () => router.refresh() });
  const failure = preview.error ?? imported.error;
  const errorOf = (field: string) => failure?.data?.errors?.find((f) => f.field === field || f.field.startsWith(`${field}.`));

  async function choose(file: File | undefined) {
    preview.reset();
    imported.reset();
    setFileName(file?.name ?? "");
    setCsv(file ? await file.text() : "");
  }

  return (
    <div className={`card ${styles.upload}`} data-testid="statement-upload">
      <form
        className={styles.uploadForm}
        onSubmit={(e) => {
          e.preventDefault();
          imported.reset();
          preview.mutate({ accountNumber, csv });
        }}
      >
        <label className={styles.filter}>
          Account number (NUBAN)
          <input
            inputMode="numeric"
            maxLength={10}
            value={accountNumber}
            onChange={(e) => setAccountNumber(e.target.value.trim())}
            aria-invalid={Boolean(errorOf("accountNumber"))}
          />
          {errorOf("accountNumber") && <span className="field-error">{errorOf("accountNumber")?.message}</span>}
        </label>
        <label className={styles.filter}>
          Statement CSV (date,amount,reference,narration)
          <input type="file" accept=".csv,text/csv" onChange={(e) => void choose(e.target.files?.[0])} />
        </label>
        <button type="submit" disabled={!csv || preview.isPending}>
          {preview.isPending ? "Checking…" : "Preview matches"}
        </button>
      </form>
      {failure && (
        <p className="form-error">
          {failure.data?.errors?.length ? failure.data.errors.map((f) => `${f.field} ${f.message}`).join("; ") : failure.message}
        </p>
      )}
      {preview.data && !imported.data && (
        <>
          <p className="muted">
            {fileName}: {preview.data.filter((l) => l.match === "matched").length} of {preview.data.length} lines match a settlement.
            Nothing is saved until you import.
          </p>
          <Lines lines={preview.data} testId="statement-preview" />
          <div className="row">
            <button type="button" onClick={() => imported.mutate({ accountNumber, csv })} disabled={imported.isPending}>
              {imported.isPending ? "Importing…" : `Import ${preview.data.length === 1 ? "1 line" : `${preview.data.length} lines`}`}
            </button>
          </div>
        </>
      )}
      {imported.data && (
        <>
          <p role="status">
            Imported:{" "}
            {count(imported.data.filter((l) => l.match === "matched").length, "line matched a settlement", "lines matched settlements")},{" "}
            {count(imported.data.filter((l) => l.match === "unmatched").length, "line flagged", "lines flagged")}.
          </p>
          <Lines lines={imported.data} testId="statement-imported" />
        </>
      )}
    </div>
  );
}
