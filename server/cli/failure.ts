// How the operator CLI tells a failure. On stderr always, for the operator at the terminal: `error: <message>` (an
// ApiError's field errors on the lines after). Under --json also one line on stdout, so a script that reads stdout gets
// JSON for every outcome, not only for success: `{"ok":false,"error":{"message","code"?,"errors"?}}` (`ok` as `ledger
// verify` answers; `code` is API.md's for a refusal the core made).
import { ApiError, type ApiCode, type FieldError } from "../api-error";

export type Failure = { message: string; code?: ApiCode; errors?: FieldError[] };

/** parseArgs's own refusals (an unknown flag, a flag without its value) are TypeErrors carrying this code. */
const isArgumentError = (err: unknown): err is Error & { code: string } =>
  err instanceof TypeError && "code" in err && typeof err.code === "string" && err.code.startsWith("ERR_PARSE_ARGS_");

function failureOf(err: unknown): Failure {
  if (err instanceof ApiError)
    return err.errors.length ? { message: err.message, code: err.code, errors: err.errors } : { message: err.message, code: err.code };
  if (isArgumentError(err)) {
    // parseArgs's wording for a flag typed without its value ("argument missing", or "ambiguous" when another flag
    // follows, with advice for values that start with "-" that does not fit that case) said the operator's way.
    const valueless = /^Option '(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(err.message)?.[1];
    if (valueless) return { message: `${valueless} needs a value` };
    // Its other refusals explain themselves over several lines; one line reads the same and greps better.
    return { message: err.message.replace(/\s*\n\s*/g, " ") };
  }
  // The message alone: `String(err)` would print "Error: …" after our own "error: ".
  return { message: err instanceof Error ? err.message : String(err) };
}

export function reportFailure(err: unknown, json: boolean): void {
  const failure = failureOf(err);
  console.error(`error: ${[failure.message, ...(failure.errors ?? []).map((e) => `  ${e.field} ${e.message}`)].join("\n")}`);
  if (json) console.log(JSON.stringify({ ok: false, error: failure }));
}
