// Settlements for the dashboard and typed clients: the same core as GET /api/v2/settlements[/{id}].
import { z } from "zod";
import { explainSettlement } from "../../settlements/explained";
import { getSettlement, listSettlements, settlementQuery, settlementSources } from "../../settlements/view";
import { merchantProcedure, router } from "../init";

export const settlementsRouter = router({
  list: merchantProcedure("read")
    .input(settlementQuery)
    .query(({ ctx, input }) => listSettlements(ctx.scope, input)),
  byId: merchantProcedure("read")
    .input(z.object({ settlementId: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => getSettlement(ctx.scope, input.settlementId)),
  /** The settlement as its page explains it: each line's verdict and findings, its sales, its exceptions. */
  explained: merchantProcedure("read")
    .input(z.object({ settlementId: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => explainSettlement(ctx.scope, input.settlementId)),
  /** The provider accounts settlements came from, for the list's filter. */
  sources: merchantProcedure("read").query(({ ctx }) => settlementSources(ctx.scope)),
});
