// The signed-in person's own account: e-mail verification and two-factor sign-in (sessions join here).
import { z } from "zod";
import { resendVerification } from "../../users/email-verification";
import { confirmEnrolment, disableTwoFactor, renewRecoveryCodes, startEnrolment, twoFactorStatus } from "../../users/two-factor";
import { router, userProcedure } from "../init";

/** A six-digit code from the app, or a recovery code. */
const code = z.object({ code: z.string().trim().min(6, "must be the 6-digit code from your app").max(32) });

export const accountRouter = router({
  resendVerification: userProcedure.mutation(({ ctx }) => resendVerification(ctx.caller.userId)),
  twoFactor: router({
    status: userProcedure.query(({ ctx }) => twoFactorStatus(ctx.caller.userId)),
    start: userProcedure.mutation(({ ctx }) => startEnrolment(ctx.caller.userId)),
    confirm: userProcedure.input(code).mutation(({ ctx, input }) => confirmEnrolment(ctx.caller.userId, input.code, { ip: ctx.ip, userAgent: null })),
    renewRecoveryCodes: userProcedure.input(code).mutation(({ ctx, input }) => renewRecoveryCodes(ctx.caller.userId, input.code, { ip: ctx.ip, userAgent: null })),
    disable: userProcedure.input(code).mutation(({ ctx, input }) => disableTwoFactor(ctx.caller.userId, input.code, { ip: ctx.ip, userAgent: null })),
  }),
});
