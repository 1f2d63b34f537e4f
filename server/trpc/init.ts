/**
 * tRPC infrastructure: context, error shape and procedure builders by role. Rarely changes;
 * feature routers live in ./routers and call services, nothing else.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { transformer } from "./transformer";
import { ZodError, z } from "zod";
import { ApiError, invalidFields, type ApiCode } from "../api-error";
import type { Caller } from "../auth/caller";
import type { Origin } from "../users/security-notices";
import { assertCan, needsFreshSecondFactor, type Action } from "../auth/permissions";
import { assertFreshSecondFactor } from "../users/two-factor";
import { limitMerchant } from "../limits/rate-limits";
import { log } from "../logger";
import { recordAudit } from "../team/audit";
import { initiateInputError } from "../payments/initiate-schema";

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
function apiErrorOf(error: TRPCError, path: string | undefined, input: unknown, ctx: Context | undefined): ApiError {
  const cause = error.cause;
  if (cause instanceof ApiError) return cause;
  if (cause instanceof ZodError) {
    // A person on the dashboard may leave the URLs out (API.md tRPC); a machine is told they are missing.
    const urls = ctx?.caller?.kind === "user" ? "mayBeLeftOut" : "required";
    const initiation = path === "initiatePayment" ? initiateInputError(input, urls) : null;
    if (initiation) return initiation;
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
  errorFormatter({ shape, error, path, input, ctx }) {
    const api = apiErrorOf(error, path, input, ctx);
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

export const publicProcedure = t.procedure.use(apiErrors);

/**
 * The audit log: every mutation a signed-in person carries out (path, merchant, who, when, a
 * redacted input). Machines are left out: their requests are the merchant's own integration.
 * Refused calls are not actions; role checks run inside `next()`, so they are never recorded.
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

export const authedProcedure = publicProcedure
  .use(async ({ ctx, path, next }) => {
    if (ctx.authError) throw ctx.authError;
    const caller = ctx.caller;
    if (!caller) throw new ApiError("S1", "Sign in, or send Authorization: Bearer <token> from POST /api/v2/encrypt/keys");
    // A team that requires two factors opens only the person's own account until they have set it up.
    if (caller.kind === "user" && caller.mustEnrolTwoFactor && !path.startsWith("account.")) assertCan(caller, "read");
    if (caller.kind === "machine") {
      for (const [k, v] of Object.entries(await limitMerchant(caller.merchantId, caller.mode))) ctx.setHeader(k, v);
    }
    return next({ ctx: { ...ctx, caller } });
  })
  .use(audited);

/**
 * A procedure open to callers whom `can(caller, action)` allows (server/auth/permissions.ts), as the pages ask; where
 * the table marks the action `fresh`, a person who uses two factors must also have typed a code within 15 minutes.
 */
export function permittedProcedure(action: Action) {
  return authedProcedure.use(async ({ ctx, next }) => {
    assertCan(ctx.caller, action);
    if (ctx.caller.kind === "user" && needsFreshSecondFactor(action))
      await assertFreshSecondFactor(ctx.caller.userId, ctx.caller.sessionId);
    return next({ ctx: { ...ctx, caller: ctx.caller } });
  });
}

/**
 * Sensitive actions (issue 17): a signed-in person who uses two factors must have proved one on this session within
 * 15 minutes, or is asked for a fresh code. Machines are the merchant's own integration and are not asked.
 */
export const freshSecondFactor = t.middleware(async ({ ctx, next }) => {
  if (ctx.caller?.kind === "user") await assertFreshSecondFactor(ctx.caller.userId, ctx.caller.sessionId);
  return next();
});

/** Owner, admin and developer (and machines) change things; viewers read. */
export const staffProcedure = permittedProcedure("change");

/** Calling a payment off or paying money back: the merchant's own integration (API tokens), or an owner or admin. */
export const moneyBackProcedure = permittedProcedure("payments.moneyBack");

/** Signed-in people only (team, session), never machines. */
export const userProcedure = permittedProcedure("account").use(({ ctx, next }) => {
  // `account` admits people only; this narrows the type for the procedures below.
  if (ctx.caller.kind !== "user") throw new ApiError("S3", "Only signed-in users may do this");
  return next({ ctx: { ...ctx, caller: ctx.caller } });
});

/** Signed-in people whom `can(caller, action)` allows (with a fresh second factor where the table says so). */
export function userPermittedProcedure(action: Action) {
  return userProcedure.use(async ({ ctx, next }) => {
    assertCan(ctx.caller, action);
    if (needsFreshSecondFactor(action)) await assertFreshSecondFactor(ctx.caller.userId, ctx.caller.sessionId);
    return next();
  });
}
export const adminUserProcedure = userPermittedProcedure("team.manage");

/** The sensitive forms of the procedures above: roll keys and secrets, refund. */
export const sensitiveStaffProcedure = staffProcedure.use(freshSecondFactor);
export const sensitiveMoneyBackProcedure = moneyBackProcedure.use(freshSecondFactor);
