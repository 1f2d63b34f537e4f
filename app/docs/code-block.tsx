// Code as the docs show it: a labelled block, an answer folded away until asked for, and a walk through curl commands
// (plain HTML, no client script).
import styles from "./docs.module.css";
import { tokenExport, type CurlStep } from "./examples";

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

/**
 * Curl commands to run in order, each with Owo's answer. A page's own walk has numbered h2 steps; a second walk below
 * another heading has h3 steps (unnumbered) and `idPrefix` keeps its anchors apart from the first's.
 */
export function CurlSteps({ steps, heading: Heading = "h2", idPrefix = "" }: { steps: CurlStep[]; heading?: "h2" | "h3"; idPrefix?: string }) {
  return (
    <div className={styles.steps}>
      {steps.map((step) => (
        <section key={step.id} className={styles.step} id={`${idPrefix}${step.id}`}>
          <Heading>{step.title}</Heading>
          <p>{step.note}</p>
          <CodeBlock label="curl" code={step.command} />
          <AnswerBlock value={step.answer} summary="What Owo answers (HTTP 200)" />
          {step.id === "token" ? <CodeBlock label="then" code={tokenExport} /> : null}
        </section>
      ))}
    </div>
  );
}
