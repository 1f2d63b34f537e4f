// API keys: list what may be shown, roll a secret (shown once).
import { z } from "zod";
import { createLiveKeys, listKeys, rollSecretKey } from "../../auth/api-keys";
import { merchantProcedure, originOf, router } from "../init";

export const keysRouter = router({
  list: merchantProcedure("read").query(({ ctx }) => listKeys(ctx.caller.merchantId)),
  roll: merchantProcedure("secrets.roll")
    .input(z.object({ graceSeconds: z.number().int().min(0).max(86400).default(0) }))
    .mutation(({ ctx, input }) => rollSecretKey(ctx.scope, input.graceSeconds, originOf(ctx))),
  /** Live keys once a provider is connected; the secrets are shown this once. */
  createLive: merchantProcedure("providers.connect").mutation(({ ctx }) => createLiveKeys(ctx.caller.merchantId, originOf(ctx))),
});
