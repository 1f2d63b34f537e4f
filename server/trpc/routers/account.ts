// The signed-in person's own account: e-mail verification (two-factor sign-in and sessions join here).
import { resendVerification } from "../../users/email-verification";
import { router, userProcedure } from "../init";

export const accountRouter = router({
  resendVerification: userProcedure.mutation(({ ctx }) => resendVerification(ctx.caller.userId)),
});
