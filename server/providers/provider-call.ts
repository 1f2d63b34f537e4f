// One HTTP call from a connector to a provider's API. Every way the call can fail to give a usable answer — no
// answer before the signal fires, a refused connection, a 5xx, a body that is not JSON — becomes ProviderUnavailable,
// so the registry skips that provider for this payment. 4xx answers come back: what they mean is the connector's.
import { countProviderCall } from "../metrics/series";
import { inSpan } from "../traces";
import { ProviderUnavailable, type ProviderAccount, type ProviderName } from "./connector";

export type ProviderAnswer = { status: number; body: unknown };

/** A connector's call to `path` under the account's API root; each connector authenticates it in its provider's way. */
export type AccountCall = (
  account: ProviderAccount,
  method: "GET" | "POST",
  path: string,
  signal: AbortSignal,
  body?: unknown,
) => Promise<ProviderAnswer>;

/** The URL of `path` under the account's API root (saved with or without a trailing slash). */
export function accountUrl(account: ProviderAccount, path: string): string {
  return account.baseUrl.replace(/\/+$/, "") + path;
}

/** One call under the account's API root with a Bearer token: Paystack's and Flutterwave's secret key, SeerBit's
 * session token. What a 401 or any other answer means stays with the connector. */
export function callWithBearer(
  provider: ProviderName,
  account: ProviderAccount,
  token: string,
  request: { method: "GET" | "POST"; path: string; body?: unknown },
  signal: AbortSignal,
): Promise<ProviderAnswer> {
  const { method, path, body } = request;
  return callProvider(provider, accountUrl(account, path), { method, headers: { authorization: `Bearer ${token}` }, body }, signal);
}

/** A provider answer larger than this is not a payment record. */
const MAX_ANSWER_BYTES = 1024 * 1024;

type CallInit = { method: "GET" | "POST"; headers: Record<string, string>; body?: unknown };

/** "GET /transaction/verify/OWO-123" → "GET /transaction/verify/{id}": an operation label with no references in it. */
function operationOf(method: string, url: string): string {
  const path = new URL(url).pathname
    .split("/")
    .map((part) => (/\d/.test(part) && !/^v\d+$/.test(part) ? "{id}" : part))
    .join("/");
  return `${method} ${path}`;
}

/** Counts each call for /metrics by its outcome: ok (2xx, 3xx), refused (4xx), timeout, unavailable (anything else). */
export async function callProvider(provider: ProviderName, url: string, init: CallInit, signal: AbortSignal): Promise<ProviderAnswer> {
  const operation = operationOf(init.method, url);
  return inSpan(`${provider} ${operation}`, { "owo.provider": provider, "owo.operation": operation }, async (span) => {
    const started = performance.now();
    let outcome = "unavailable";
    try {
      const answer = await call(provider, url, init, signal);
      outcome = answer.status >= 400 ? "refused" : "ok";
      span?.setAttribute("http.response.status_code", answer.status);
      return answer;
    } catch (err) {
      if (signal.aborted) outcome = "timeout";
      throw err;
    } finally {
      span?.setAttribute("owo.outcome", outcome);
      countProviderCall(provider, operation, outcome, (performance.now() - started) / 1000);
    }
  });
}

async function call(provider: ProviderName, url: string, init: CallInit, signal: AbortSignal): Promise<ProviderAnswer> {
  const what = `${init.method} ${new URL(url).pathname}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: { accept: "application/json", ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "error",
      signal,
    });
    text = await res.text();
  } catch (err) {
    if (signal.aborted) throw new ProviderUnavailable(provider, `${what}: no answer in time (${abortReason(signal)})`);
    const reason = networkReason(err);
    throw new ProviderUnavailable(provider, `${what}: cannot be reached (${reason})`, !NEVER_SENT.has(reason));
  }
  if (res.status >= 500) throw new ProviderUnavailable(provider, `${what}: answered ${res.status}`);
  if (text.length > MAX_ANSWER_BYTES) throw new ProviderUnavailable(provider, `${what}: answer too large`);
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderUnavailable(provider, `${what}: answered ${res.status} with a body that is not JSON`);
  }
}

/** Socket errors that mean the request never left Owo: no connection was made. A reset or a dropped socket may come
 * after the provider read the request, so they are not here. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : "aborted";
}

/** undici hides the socket error (ECONNREFUSED, ENOTFOUND …) in `cause`. */
function networkReason(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
