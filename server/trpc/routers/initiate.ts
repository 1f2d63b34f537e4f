// initiatePayment: the REST body without publicKey; merchant and mode come from the caller.
import { initiatePayment } from "../../payments/initiate";
import { initiateInputError, initiatePaymentInput } from "../../payments/initiate-schema";
import { merchantProcedure, refusedAsRest } from "../init";

export const initiatePaymentProcedure = merchantProcedure("change")
  // A person on the dashboard may leave the URLs out (API.md tRPC); a machine is told they are missing.
  .use(refusedAsRest((raw, caller) => initiateInputError(raw, caller?.kind === "user" ? "mayBeLeftOut" : "required")))
  .input(initiatePaymentInput)
  .mutation(async ({ ctx, input }) => {
    const source = ctx.caller.kind === "machine" ? "trpc" : "dashboard";
    const result = await initiatePayment(input, { merchantId: ctx.caller.merchantId, mode: ctx.caller.mode, source });
    return result.payments;
  });
