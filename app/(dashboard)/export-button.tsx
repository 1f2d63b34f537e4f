"use client";
// Downloads a list as CSV from one of the streamed export routes, counting rows as they stream in so a large export
// shows its progress.
import { useRef, useState } from "react";
import styles from "./export-button.module.css";

type Progress = { done: number; total: number | null } | null;

/** `path` is the export route (e.g. /api/exports/payments), `query` the filters the screen applied. */
export function ExportButton({ path, query, label = "Export CSV" }: { path: string; query: string; label?: string }) {
  const [progress, setProgress] = useState<Progress>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const abort = useRef<AbortController | null>(null);

  async function download() {
    setError(null);
    setRunning(true);
    abort.current = new AbortController();
    try {
      const res = await fetch(`${path}${query ? `?${query}` : ""}`, { signal: abort.current.signal });
      if (!res.ok || !res.body)
        throw new Error(
          ((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `the server answered ${res.status}`,
        );
      const total = Number(res.headers.get("x-total-count") ?? NaN);
      const parts: BlobPart[] = [];
      let lines = 0;
      setProgress({ done: 0, total: Number.isFinite(total) ? total : null });
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        // One record per line (the export flattens line breaks in cells); the first line is the header.
        for (const byte of value) if (byte === 10) lines++;
        setProgress({ done: Math.max(0, lines - 1), total: Number.isFinite(total) ? total : null });
      }
      const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "owo-export.csv";
      const url = URL.createObjectURL(new Blob(parts, { type: "text/csv" }));
      const a = Object.assign(document.createElement("a"), { href: url, download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      if (!(e instanceof DOMException && e.name === "AbortError")) setError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      abort.current = null;
      setRunning(false);
      setTimeout(() => setProgress(null), 2500);
    }
  }

  return (
    <div className={styles.export}>
      {progress && (
        <div className={styles.progress} data-testid="export-progress">
          <progress value={progress.done} max={progress.total ?? undefined} aria-label="Export progress" />
          <span className="muted">
            {progress.done.toLocaleString("en-NG")}
            {progress.total !== null ? ` / ${progress.total.toLocaleString("en-NG")}` : ""} rows
          </span>
        </div>
      )}
      {running ? (
        <button type="button" className="secondary" onClick={() => abort.current?.abort()}>
          Cancel export
        </button>
      ) : (
        <button type="button" className="secondary" onClick={download}>
          {label}
        </button>
      )}
      {error && <p className="form-error">{error}</p>}
    </div>
  );
}
