// verifyPayment: verify's `data` for the caller's own payment.
import { z } from "zod";
import { verifyPaymentNow } from "../../payments/verify";
import { merchantProcedure } from "../init";

export const verifyPaymentProcedure = merchantProcedure("read")
  .input(z.object({ paymentReference: z.string().min(1).max(64) }))
  .query(({ ctx, input }) => verifyPaymentNow(ctx.scope, input.paymentReference));
