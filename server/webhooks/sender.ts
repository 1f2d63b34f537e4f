// One HTTP attempt at a callback (or a forwarded notice): POST the body, never follow redirects, never throw.
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { checkDestination, guardedLookup, hostOf } from "./address-guard";

export const DEFAULT_TIMEOUT_MS = 15_000;
const SNIPPET_BYTES = 1024;

export type AttemptResult = {
  statusCode: number | null;
  latencyMs: number;
  /** First 1024 bytes of the answer as text, kept so the dashboard can show what the receiver said. */
  responseSnippet: string | null;
  error: string | null;
  /** A 2xx answer; anything else (3xx included) is retried. */
  delivered: boolean;
  /** 410: the receiver asks us to stop sending here. */
  gone: boolean;
};

export type PostInput = {
  url: string;
  /** The signature headers; Content-Type and User-Agent are ours and win (but for a forwarded notice). */
  headers: Readonly<Record<string, string | string[]>>;
  body: string | Buffer;
  /** A provider's notice passed on (forwards.ts): its own headers go as they came, Content-Type and User-Agent too. */
  asForwarded?: boolean;
  timeoutMs?: number;
  /** OWO_ALLOW_PRIVATE_CALLBACKS: lets development and tests call loopback and private hosts. */
  allowPrivate: boolean;
};

/** Words an operator understands for the socket errors a callback usually meets. */
function describeError(err: NodeJS.ErrnoException, host: string): string {
  if (err.code === "ERR_OWO_ADDRESS_REFUSED") return err.message;
  switch (err.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `DNS lookup failed for ${host} (${err.code})`;
    case "ECONNREFUSED":
      return `connection refused by ${host}`;
    case "ECONNRESET":
      return `connection reset by ${host}`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${host} is unreachable (${err.code})`;
    default:
      return err.code ? `${err.code}: ${err.message}` : err.message || "request failed";
  }
}

function whyNotDelivered(statusCode: number | null): string {
  if (statusCode === null) return "answered without a status";
  if (statusCode >= 300 && statusCode < 400) return `answered ${statusCode}; redirects are not followed`;
  return `answered ${statusCode}`;
}

export function postSigned(input: PostInput): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, statusCode: number | null = null): AttemptResult => ({
    statusCode,
    latencyMs: elapsed(),
    responseSnippet: null,
    error,
    delivered: false,
    gone: false,
  });

  // Node connects straight to an IP literal without calling `lookup`, so literals are judged here.
  const destination = checkDestination(input.url, input.allowPrivate);
  if (!destination.ok) {
    const prefix = destination.reason.startsWith("refused:") ? "" : "bad URL: ";
    return Promise.resolve(failed(prefix + destination.reason));
  }
  const url = destination.url;
  const host = hostOf(url);
  const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    // One deadline for connect, send and answer together: a receiver dripping bytes cannot hold a worker.
    let timer = setTimeout(() => finish(failed(`timed out after ${timeoutMs} ms`)), timeoutMs);
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(result);
    };

    const onResponse = (response: IncomingMessage) => {
      const statusCode = response.statusCode ?? null;
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (): AttemptResult => {
        const snippet = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString("utf8");
        const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
        return {
          statusCode,
          latencyMs: elapsed(),
          responseSnippet: snippet,
          error: delivered ? null : whyNotDelivered(statusCode),
          delivered,
          gone: statusCode === 410,
        };
      };
      // The status arrived in time and is the verdict; the body is read only for the snippet,
      // and whatever came by the deadline is what we keep.
      clearTimeout(timer);
      timer = setTimeout(() => finish(answer()), Math.max(0, timeoutMs - elapsed()));
      const done = () => finish(answer());
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= SNIPPET_BYTES) done();
      });
      response.on("end", done);
      response.on("error", done);
      response.on("close", done);
    };

    try {
      const transport = url.protocol === "https:" ? https : http;
      request = transport.request(
        {
          protocol: url.protocol,
          host,
          port: url.port === "" ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: {
            ...input.headers,
            ...(input.asForwarded ? {} : { "Content-Type": "application/json", "User-Agent": "Owo-Webhooks/1" }),
            "Content-Length": Buffer.byteLength(input.body),
          },
          // A fresh socket each time, so every attempt passes the connect-time guard.
          agent: false,
          lookup: guardedLookup(input.allowPrivate),
        },
        onResponse,
      );
      request.on("error", (err: NodeJS.ErrnoException) => finish(failed(describeError(err, host))));
      request.end(input.body);
    } catch (err) {
      // Bad header values and the like throw synchronously; they are this attempt's failure too.
      finish(failed(err instanceof Error ? `request not sent: ${err.message}` : "request not sent"));
    }
  });
}
