// The hosted checkout page's live status: public (the customer is not signed in), limited per client IP.
import { z } from "zod";
import { checkoutStatus } from "../../payments/checkout";
import { PAYMENT_TYPES } from "../../payments/initiate-schema";
import { chooseChannel } from "../../payments/standard-checkout";
import { customerProcedure, router } from "../init";

export const checkoutRouter = router({
  status: customerProcedure
    .input(z.object({ linkingReference: z.string().min(1).max(64) }))
    .query(({ input }) => checkoutStatus(input.linkingReference)),
  /** The customer's choice for a standard-checkout payment: USSD with their bank, or TRANSFER; issued at once. */
  choose: customerProcedure
    .input(
      z.object({ linkingReference: z.string().min(1).max(64), paymentType: z.enum(PAYMENT_TYPES), bankCode: z.string().max(8).nullish() }),
    )
    .mutation(async ({ input }) => {
      await chooseChannel(input.linkingReference, { paymentType: input.paymentType, bankCode: input.bankCode });
      return checkoutStatus(input.linkingReference);
    }),
});
