// standardCheckout: the REST standard-checkout body without publicKey; merchant and mode come from the caller.
import { createStandardCheckout } from "../../payments/standard-checkout";
import { parseStandardCheckout, type StandardCheckoutInput, type StandardCheckoutRequest } from "../../payments/standard-checkout-schema";
import { merchantProcedure } from "../init";

export const standardCheckoutProcedure = merchantProcedure("change")
  // Parsed by the same function as REST, so both doors refuse a body in the same words (S2, S4, S6 or S5 listing all);
  // _input/_output only type the procedure for clients, as a zod schema's would.
  .input({
    _input: {} as StandardCheckoutInput,
    _output: {} as StandardCheckoutRequest,
    parse: (raw: unknown) => parseStandardCheckout(raw, { publicKey: false }),
  })
  .mutation(async ({ ctx, input }) => {
    const source = ctx.caller.kind === "machine" ? "trpc" : "dashboard";
    return (await createStandardCheckout(input, { merchantId: ctx.caller.merchantId, mode: ctx.caller.mode, source })).payments;
  });
