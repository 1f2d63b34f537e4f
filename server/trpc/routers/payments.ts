// The merchant's payments: the filtered list (keyset pages), one payment with its timeline, the overview's figures.
import { z } from "zod";
import { paymentFilters } from "../../payments/filters";
import { cursorSchema, listPayments, PAGE_LIMITS } from "../../payments/history";
import { cancelPayment } from "../../payments/lifecycle";
import { paymentOverview } from "../../payments/overview";
import { cancelRefund, giveRefundAccount, refundAccountInput, refundBanks } from "../../payments/refund-attention";
import { refundInput, requestRefund } from "../../payments/refunds";
import { paymentWithTimeline } from "../../payments/timeline";
import { verifyAnswer } from "../../payments/verify";
import { merchantProcedure, router } from "../init";

const refundOf = z.object({ paymentReference: z.string().min(1).max(64), refundReference: z.string().min(1).max(64) });

export const paymentsRouter = router({
  list: merchantProcedure("read")
    .input(paymentFilters.extend({ cursor: cursorSchema.nullish(), limit: z.number().int().min(1).max(PAGE_LIMITS.max).optional() }))
    .query(({ ctx, input }) => {
      const { cursor, limit, ...filters } = input;
      return listPayments(ctx.scope, filters, { cursor, limit });
    }),
  byReference: merchantProcedure("read")
    .input(z.object({ paymentReference: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => paymentWithTimeline(ctx.scope, input.paymentReference)),
  overview: merchantProcedure("read").query(({ ctx }) => paymentOverview(ctx.scope)),
  cancel: merchantProcedure("payments.moneyBack")
    .input(z.object({ paymentReference: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => verifyAnswer(await cancelPayment(ctx.scope, input.paymentReference))),
  refund: merchantProcedure("payments.refund")
    .input(refundInput.extend({ paymentReference: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => {
      const { paymentReference, ...body } = input;
      return requestRefund(ctx.scope, paymentReference, body);
    }),
  /** The banks a refund's provider can pay into, for the customer's account of a refund that needs one. */
  refundBanks: merchantProcedure("payments.moneyBack")
    .input(refundOf)
    .query(({ ctx, input }) => refundBanks(ctx.scope, input.paymentReference, input.refundReference)),
  refundAccount: merchantProcedure("payments.refund")
    .input(refundAccountInput.extend(refundOf.shape))
    .mutation(({ ctx, input }) => {
      const { paymentReference, refundReference, ...body } = input;
      return giveRefundAccount(ctx.scope, paymentReference, refundReference, body);
    }),
  cancelRefund: merchantProcedure("payments.moneyBack")
    .input(refundOf)
    .mutation(({ ctx, input }) => cancelRefund(ctx.scope, input.paymentReference, input.refundReference)),
});
