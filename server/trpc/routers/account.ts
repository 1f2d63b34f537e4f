// The signed-in person's own account: e-mail verification, two-factor sign-in, signed-in sessions.
import { z } from "zod";
import { changeEmail, changePassword } from "../../users/credentials";
import { resendVerification } from "../../users/email-verification";
import { sessionsOf, signOutEverywhereElse, signOutSession } from "../../users/signed-in-sessions";
import {
  confirmEnrolment,
  disableTwoFactor,
  refreshSecondFactor,
  renewRecoveryCodes,
  startEnrolment,
  twoFactorStatus,
} from "../../users/two-factor";
import { merchantProcedure, originOf, router } from "../init";

/** A six-digit code from the app, or a recovery code. */
const code = z.object({ code: z.string().trim().min(6, "must be the 6-digit code from your app").max(32) });

/** What proves it is the person: the current password, and the app's code where two-factor sign-in is on. */
const proof = { currentPassword: z.string().max(200), code: z.string().max(32).optional() };

export const accountRouter = router({
  resendVerification: merchantProcedure("account").mutation(({ ctx }) => resendVerification(ctx.caller.userId)),
  changePassword: merchantProcedure("account")
    .input(z.object({ ...proof, newPassword: z.string().max(200) }))
    .mutation(({ ctx, input }) => changePassword(ctx.caller.userId, input, { ip: ctx.ip, userAgent: null })),
  changeEmail: merchantProcedure("account")
    .input(z.object({ ...proof, newEmail: z.string().max(320) }))
    .mutation(({ ctx, input }) => changeEmail(ctx.caller.userId, input, { ip: ctx.ip, userAgent: null })),
  twoFactor: router({
    status: merchantProcedure("account").query(({ ctx }) => twoFactorStatus(ctx.caller.userId)),
    start: merchantProcedure("account").mutation(({ ctx }) => startEnrolment(ctx.caller.userId)),
    confirm: merchantProcedure("account")
      .input(code)
      .mutation(({ ctx, input }) => confirmEnrolment(ctx.caller.userId, input.code, originOf(ctx), ctx.caller.sessionId)),
    renewRecoveryCodes: merchantProcedure("account")
      .input(code)
      .mutation(({ ctx, input }) => renewRecoveryCodes(ctx.caller.userId, input.code, originOf(ctx))),
    disable: merchantProcedure("account")
      .input(code)
      .mutation(({ ctx, input }) => disableTwoFactor(ctx.caller.userId, input.code, originOf(ctx))),
    /** A fresh code for this session, for sensitive actions in the next 15 minutes. */
    refresh: merchantProcedure("account")
      .input(code)
      .mutation(({ ctx, input }) => refreshSecondFactor(ctx.caller.userId, ctx.caller.sessionId, input.code)),
  }),
  sessions: router({
    list: merchantProcedure("account").query(({ ctx }) => sessionsOf(ctx.caller.userId, ctx.caller.sessionId)),
    end: merchantProcedure("account")
      .input(z.object({ id: z.string().min(1).max(80) }))
      .mutation(({ ctx, input }) => signOutSession(ctx.caller.userId, input.id)),
    endOthers: merchantProcedure("account").mutation(({ ctx }) => signOutEverywhereElse(ctx.caller.userId, ctx.caller.sessionId)),
  }),
});
