// Code as the docs show it: a labelled block, and an answer folded away until asked for (plain HTML, no client script).
import styles from "./docs.module.css";

export const asJson = (value: unknown) => JSON.stringify(value, null, 2);

export function CodeBlock({ code, label }: { code: string; label?: string }) {
  return (
    <figure className={styles.code}>
      {label ? <figcaption>{label}</figcaption> : null}
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

export function AnswerBlock({ value, summary = "Answer" }: { value: unknown; summary?: string }) {
  return (
    <details className={`${styles.code} ${styles.answer}`}>
      <summary>{summary}</summary>
      <pre>
        <code>{asJson(value)}</code>
      </pre>
    </details>
  );
}
