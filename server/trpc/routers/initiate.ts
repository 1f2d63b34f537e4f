// initiatePayment: the REST body without publicKey; merchant and mode come from the caller.
import { ZodError } from "zod";
import { initiatePayment } from "../../payments/initiate";
import { initiateInputError, initiatePaymentInput } from "../../payments/initiate-schema";
import { merchantProcedure } from "../init";

export const initiatePaymentProcedure = merchantProcedure("change")
  // Wraps the input's parsing: a refused body is answered in the very words REST answers it (S2, S4, S6 or S5).
  .use(async ({ ctx, getRawInput, next }) => {
    const result = await next();
    if (!result.ok && result.error.cause instanceof ZodError) {
      // A person on the dashboard may leave the URLs out (API.md tRPC); a machine is told they are missing.
      const refusal = initiateInputError(await getRawInput(), ctx.caller.kind === "user" ? "mayBeLeftOut" : "required");
      if (refusal) throw refusal;
    }
    return result;
  })
  .input(initiatePaymentInput)
  .mutation(async ({ ctx, input }) => {
    const source = ctx.caller.kind === "machine" ? "trpc" : "dashboard";
    const result = await initiatePayment(input, { merchantId: ctx.caller.merchantId, mode: ctx.caller.mode, source });
    return result.payments;
  });
