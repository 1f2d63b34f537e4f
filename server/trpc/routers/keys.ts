// API keys: list what may be shown, roll a secret (shown once).
import { z } from "zod";
import { listKeys, rollSecretKey } from "../../auth/api-keys";
import { authedProcedure, router, staffProcedure } from "../init";

export const keysRouter = router({
  list: authedProcedure.query(({ ctx }) => listKeys(ctx.caller.merchantId)),
  roll: staffProcedure
    .input(z.object({ graceSeconds: z.number().int().min(0).max(86400).default(0) }))
    .mutation(({ ctx, input }) => rollSecretKey(ctx.caller.merchantId, ctx.caller.mode, input.graceSeconds)),
});
