/**
 * tRPC infrastructure: context, error shape, and one procedure builder per permission. Rarely changes;
 * feature routers live in ./routers and call services, nothing else.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { transformer } from "./transformer";
import { ZodError, z } from "zod";
import { ApiError, invalidFields, type ApiCode } from "../api-error";
import type { Caller, UserCaller } from "../auth/caller";
import type { Origin } from "../users/security-notices";
import { assertCan, needsFreshSecondFactor, type Action, type PeopleOnlyAction } from "../auth/permissions";
import { assertFreshSecondFactor } from "../users/two-factor";
import { limitIp, limitMerchant } from "../limits/rate-limits";
import { log } from "../logger";
import { recordAudit } from "../team/audit";
import { scopeOf } from "../merchants/scope";

export type Context = {
  caller: Caller | null;
  /** Why a presented credential was refused (bad token, cross-site cookie use); answered on authed calls. */
  authError: ApiError | null;
  requestId: string;
  /** The client's address for per-IP limits; null for in-process callers (pages), already limited at the page door. */
  ip: string | null;
  setHeader: (name: string, value: string) => void;
};

const TRPC_CODE: Record<ApiCode, TRPC_ERROR_CODE_KEY> = {
  S1: "UNAUTHORIZED",
  S2: "BAD_REQUEST",
  S3: "FORBIDDEN",
  S4: "BAD_REQUEST",
  S5: "BAD_REQUEST",
  S6: "BAD_REQUEST",
  S8: "BAD_REQUEST",
  S14: "CONFLICT",
  S15: "CONFLICT",
  S404: "NOT_FOUND",
  S405: "METHOD_NOT_SUPPORTED",
  S413: "PAYLOAD_TOO_LARGE",
  S415: "UNSUPPORTED_MEDIA_TYPE",
  S429: "TOO_MANY_REQUESTS",
  S500: "INTERNAL_SERVER_ERROR",
  S502: "BAD_GATEWAY",
};

const API_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, ApiCode>> = {
  UNAUTHORIZED: "S1",
  FORBIDDEN: "S3",
  NOT_FOUND: "S404",
  CONFLICT: "S14",
  TOO_MANY_REQUESTS: "S429",
  PAYLOAD_TOO_LARGE: "S413",
  METHOD_NOT_SUPPORTED: "S405",
  UNSUPPORTED_MEDIA_TYPE: "S415",
  BAD_REQUEST: "S5",
  BAD_GATEWAY: "S502",
};

/** The ApiError behind any tRPC failure, so both doors describe a fault in the same words. */
function apiErrorOf(error: TRPCError): ApiError {
  const cause = error.cause;
  if (cause instanceof ApiError) return cause;
  if (cause instanceof ZodError) {
    const flat = z.flattenError(cause);
    const errors = Object.entries(flat.fieldErrors as Record<string, string[] | undefined>).map(([field, messages]) => ({
      field,
      message: messages?.[0] ?? "is invalid",
    }));
    if (flat.formErrors.length) errors.push({ field: "input", message: flat.formErrors[0] ?? "is invalid" });
    return invalidFields(errors.length ? errors : [{ field: "input", message: "is invalid" }]);
  }
  const code = API_CODE[error.code] ?? "S500";
  return new ApiError(code, code === "S500" ? "Unexpected error" : error.message);
}

const t = initTRPC.context<Context>().create({
  transformer,
  errorFormatter({ shape, error, ctx }) {
    const api = apiErrorOf(error);
    const message = api.code === "S500" ? `Unexpected error; quote request id ${ctx?.requestId ?? "?"} to support` : api.message;
    return {
      message,
      code: shape.code,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path, apiCode: api.code, errors: api.errors },
    };
  },
});

export const router = t.router;

/** Who made a change and from where, for the security mails it sends: a person by their address, else the key's backend. */
export function originOf(ctx: Context): Origin {
  const by = ctx.caller?.kind === "user" ? `${ctx.caller.email}, signed in to the dashboard` : "a backend with the merchant's secret key";
  return { ip: ctx.ip, userAgent: null, by };
}
export const createCallerFactory = t.createCallerFactory;

/** Core ApiErrors become tRPC errors with the matching code (and so the matching HTTP status). */
const apiErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof ApiError) {
    const api = result.error.cause;
    for (const [k, v] of Object.entries(api.headers)) ctx.setHeader(k, v);
    throw new TRPCError({ code: TRPC_CODE[api.code], message: api.message, cause: api });
  }
  return result;
});

/**
 * Wraps a procedure's input parsing: an input zod refuses is answered in the very words REST answers the same fields
 * (`refusal`: S2 for the amount alone, S8 for the bank alone…), not as a plain S5.
 */
export function refusedAsRest(refusal: (raw: unknown, caller: Caller | null) => ApiError | null) {
  return t.middleware(async ({ ctx, getRawInput, next }) => {
    const result = await next();
    // The input's own refusal only: a ZodError a procedure's body throws is a fault of ours, answered as such.
    if (!result.ok && result.error.code === "BAD_REQUEST" && result.error.cause instanceof ZodError) {
      const refused = refusal(await getRawInput(), ctx.caller);
      if (refused) throw refused;
    }
    return result;
  });
}

/** Every door's base: core ApiErrors keep their code. */
const procedure = t.procedure.use(apiErrors);

/** The customer's doors (the hosted checkout): nobody signs in, so each client address is limited (API.md limits). */
export const customerProcedure = procedure.use(async ({ ctx, next }) => {
  // In-process callers (pages) have no address here: the page door limited them already.
  if (ctx.ip !== null) for (const [k, v] of Object.entries(await limitIp(ctx.ip))) ctx.setHeader(k, v);
  return next();
});

/**
 * The audit log: every mutation a signed-in person carries out (path, merchant, who, when, a
 * redacted input). Machines are left out: their requests are the merchant's own integration.
 * Refused calls are not actions; permission checks run inside `next()`, so they are never recorded.
 */
// Actions whose core writes its own audit row inside the action's transaction (so both commit or neither).
const AUDITED_BY_CORE = new Set(["reconciliation.resolve"]);

const audited = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const result = await next();
  const caller = ctx.caller;
  // A person's own account actions (two-factor, sessions) are audited by the core, in every team they belong to.
  if (type === "mutation" && result.ok && caller?.kind === "user" && !path.startsWith("account.") && !AUDITED_BY_CORE.has(path)) {
    try {
      await recordAudit({ merchantId: caller.merchantId, userId: caller.userId, action: path, input: await getRawInput() });
    } catch (err) {
      // The action itself succeeded; failing it now would make the person retry something done.
      log.error({ err, path }, "audit entry not written");
    }
  }
  return result;
});

/** A signed-in person or a merchant's key; a key's requests count against its merchant's limit. */
const signedIn = procedure
  .use(async ({ ctx, next }) => {
    if (ctx.authError) throw ctx.authError;
    const caller = ctx.caller;
    if (!caller) throw new ApiError("S1", "Sign in, or send Authorization: Bearer <token> from POST /api/v2/encrypt/keys");
    if (caller.kind === "machine") {
      for (const [k, v] of Object.entries(await limitMerchant(caller.merchantId, caller.mode))) ctx.setHeader(k, v);
    }
    return next({ ctx: { ...ctx, caller } });
  })
  .use(audited);

/** Who calls a procedure for `action`: a person where the permission table keeps machines out. */
export type CallerFor<A extends Action> = A extends PeopleOnlyAction ? UserCaller : Caller;

/**
 * A procedure on the caller's merchant, open to callers whom `can(caller, action)` allows (server/auth/permissions.ts,
 * the table the pages hide by); where the table marks the action `fresh`, a person who uses two factors must also have
 * typed a code within 15 minutes. Machines are the merchant's own integration and are never asked for one.
 */
export function merchantProcedure<A extends Action>(action: A) {
  return signedIn.use(async ({ ctx, next }) => {
    assertCan(ctx.caller, action);
    if (ctx.caller.kind === "user" && needsFreshSecondFactor(action))
      await assertFreshSecondFactor(ctx.caller.userId, ctx.caller.sessionId);
    // assertCan refused machines where the table keeps them out, so the caller is a person there.
    return next({ ctx: { ...ctx, caller: ctx.caller as CallerFor<A>, scope: scopeOf(ctx.caller) } });
  });
}
