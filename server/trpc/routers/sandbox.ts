// The sandbox bank from the dashboard and typed clients: same simulator as the REST door.
import { z } from "zod";
import { simulateInput, simulatePayment } from "../../payments/simulate";
import { settlementFaults } from "../../providers/sandbox/settlement";
import { settleSandboxNow } from "../../settlements/sandbox";
import { merchantProcedure, router } from "../init";

export const sandboxRouter = router({
  simulate: merchantProcedure("change")
    .input(simulateInput.extend({ paymentReference: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const { paymentReference, ...body } = input;
      return (await simulatePayment(ctx.scope, paymentReference, body)).payments;
    }),
  /** POST /api/v2/sandbox/settlements: everything the bank holds for the merchant, settled now, with any faults. */
  settle: merchantProcedure("change")
    .input(settlementFaults)
    .mutation(({ ctx, input }) => settleSandboxNow(ctx.scope, input)),
});
