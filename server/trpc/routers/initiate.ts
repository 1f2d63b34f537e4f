// initiatePayment: the REST body without publicKey; merchant and mode come from the caller.
import { initiatePayment } from "../../payments/initiate";
import { initiatePaymentInput } from "../../payments/initiate-schema";
import { staffProcedure } from "../init";

export const initiatePaymentProcedure = staffProcedure.input(initiatePaymentInput).mutation(async ({ ctx, input }) => {
  const source = ctx.caller.kind === "machine" ? "trpc" : "dashboard";
  const result = await initiatePayment(input, { merchantId: ctx.caller.merchantId, mode: ctx.caller.mode, source });
  return result.payments;
});
