/**
 * The typed client for merchant backends: `import { createOwoClient } from "owo/client"`.
 * It buys the access token with the API keys, renews it before it dies, and speaks tRPC with
 * every procedure typed from the server's own AppRouter. Failures arrive as one OwoError.
 */
import { createTRPCClient, httpLink, TRPCClientError, type TRPCClient, type TRPCLink } from "@trpc/client";
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { observable } from "@trpc/server/observable";
import superjson from "superjson";
import type { ApiCode, FieldError } from "../server/api-error";
import type { AppRouter } from "../server/trpc/root";

export type { AppRouter, FieldError };
export type OwoInputs = inferRouterInputs<AppRouter>;
export type OwoOutputs = inferRouterOutputs<AppRouter>;
export type OwoClient = TRPCClient<AppRouter>;

export type OwoClientOptions = {
  /** Where Owo answers, e.g. https://owo.example.ng (no trailing path). */
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** A fetch of your own (proxy agent, tracing); the global fetch otherwise. */
  fetch?: typeof fetch;
};

/** API.md's codes, plus NETWORK when no answer in Owo's shape came back (refused connection, a proxy's HTML page). */
export type OwoErrorCode = ApiCode | "NETWORK";

export class OwoError extends TRPCClientError<AppRouter> {
  readonly code: OwoErrorCode;
  /** The HTTP status Owo answered with; 0 when there was no answer. */
  readonly httpStatus: number;
  /** The fields at fault, `[]` when none is. */
  readonly errors: FieldError[];

  constructor(message: string, fault: { code: OwoErrorCode; httpStatus: number; errors?: FieldError[]; cause?: Error }) {
    super(message, { cause: fault.cause });
    // TRPCClientError pins its own prototype in its constructor, which would make `instanceof OwoError` false.
    Object.setPrototypeOf(this, OwoError.prototype);
    this.name = "OwoError";
    this.code = fault.code;
    this.httpStatus = fault.httpStatus;
    this.errors = fault.errors ?? [];
  }

  /** Any failure the tRPC link reports, in Owo's words. */
  static from(err: TRPCClientError<AppRouter>): OwoError {
    if (err instanceof OwoError) return err;
    if (err.cause instanceof OwoError) return err.cause;
    const data = err.data;
    if (data?.apiCode)
      return new OwoError(err.message, { code: data.apiCode, httpStatus: data.httpStatus, errors: data.errors, cause: err });
    const status = (err.meta?.response as { status?: unknown } | undefined)?.status;
    return new OwoError(err.message, { code: "NETWORK", httpStatus: typeof status === "number" ? status : 0, cause: err });
  }
}

type Envelope = {
  status?: unknown;
  data?: { code?: unknown; message?: unknown; errors?: unknown; EncryptedSecKey?: { encryptedKey?: unknown; expiresAt?: unknown } };
};

async function readEnvelope(res: Response): Promise<Envelope> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    throw new OwoError(`Owo answered ${res.status} without JSON: ${text.slice(0, 200)}`, { code: "NETWORK", httpStatus: res.status });
  }
}

/** Tokens live OWO_TOKEN_TTL_SECONDS (a day by default); renew 60 s early, or halfway through a shorter life. */
function renewalMargin(lifetimeMs: number): number {
  return Math.min(60_000, lifetimeMs / 2);
}

type TokenKeeper = { current(): Promise<string>; forget(token: string): void };

function tokenKeeper(baseUrl: string, key: string, send: typeof fetch): TokenKeeper {
  let held: { token: string; renewAt: number } | null = null;
  // Concurrent calls share one exchange instead of each buying a token.
  let pending: Promise<string> | null = null;

  async function exchange(): Promise<string> {
    const asked = Date.now();
    const res = await send(`${baseUrl}/api/v2/encrypt/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key }),
    });
    const body = await readEnvelope(res);
    const data = body.data;
    if (body.status !== "SUCCESS") {
      const errors = Array.isArray(data?.errors) ? (data.errors as FieldError[]) : [];
      const message = typeof data?.message === "string" ? data.message : `Token exchange failed with HTTP ${res.status}`;
      throw new OwoError(message, {
        code: (typeof data?.code === "string" ? data.code : "NETWORK") as OwoErrorCode,
        httpStatus: res.status,
        errors,
      });
    }
    const granted = data?.EncryptedSecKey;
    if (typeof granted?.encryptedKey !== "string" || typeof granted.expiresAt !== "string") {
      throw new OwoError("Token exchange answered without EncryptedSecKey", { code: "NETWORK", httpStatus: res.status });
    }
    // The lifetime is read against the server's own clock (its Date header), so a skewed local clock does not matter.
    const serverNow = Date.parse(res.headers.get("date") ?? "") || asked;
    const lifetime = Math.max(0, Date.parse(granted.expiresAt) - serverNow);
    held = { token: granted.encryptedKey, renewAt: asked + lifetime - renewalMargin(lifetime) };
    return granted.encryptedKey;
  }

  return {
    current() {
      if (held && Date.now() < held.renewAt) return Promise.resolve(held.token);
      pending ??= exchange().finally(() => {
        pending = null;
      });
      return pending;
    },
    forget(token) {
      if (held?.token === token) held = null;
    },
  };
}

/** Turns every failure into an OwoError before it reaches the caller. */
const owoErrors: TRPCLink<AppRouter> =
  () =>
  ({ next, op }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (err) => observer.error(OwoError.from(err)),
        complete: () => observer.complete(),
      }),
    );

export function createOwoClient(options: OwoClientOptions): OwoClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const send = options.fetch ?? globalThis.fetch;
  const tokens = tokenKeeper(baseUrl, `${options.secretKey}.${options.publicKey}`, send);

  async function withToken(url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const attempt = async () => {
      const token = await tokens.current();
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${token}`);
      return { token, res: await send(url, { ...init, headers }) };
    };
    const first = await attempt();
    if (first.res.status !== 401) return first.res;
    // Revoked or expired early (a rolled secret, a restored database): buy a new token once, then let a 401 stand.
    await first.res.body?.cancel();
    tokens.forget(first.token);
    return (await attempt()).res;
  }

  return createTRPCClient<AppRouter>({
    links: [owoErrors, httpLink({ url: `${baseUrl}/api/trpc`, transformer: superjson, fetch: withToken })],
  });
}
