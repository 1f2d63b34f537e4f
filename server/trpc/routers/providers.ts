// Bank-side providers on the dashboard (owners and admins): connect, test, disconnect, and their health.
import { z } from "zod";
import { disconnectProvider, LIVE_PROVIDERS, noticeUrlWarning, setForwardUrl, setRefundsEnabled } from "../../providers/accounts";
import { providerHealth } from "../../providers/health";
import { agreedSchedules, feeScheduleShape, feeScheduleView, setFeeSchedule } from "../../books/fee-schedules";
import { connectorFor, connectTestedProvider, testProviderConnection } from "../../providers/registry";
import { recentForwards } from "../../webhooks/forwards";
import { settings } from "../../settings";
import { merchantProcedure, router } from "../init";

const managerProcedure = merchantProcedure("providers.manage");
/** Connecting or disconnecting a provider is sensitive: the table asks a fresh two-factor code of people who use them. */
const connectingProcedure = merchantProcedure("providers.connect");
const providerId = z.object({ providerId: z.string().min(1).max(40) });

export const providersRouter = router({
  list: managerProcedure.query(async ({ ctx }) => {
    const health = await providerHealth(ctx.caller.merchantId);
    const fees = await agreedSchedules(
      ctx.caller.merchantId,
      health.map((p) => p.providerId),
    );
    return {
      providers: health.map((p) => {
        const agreed = fees.get(p.providerId);
        return {
          ...p,
          noticeUrlWarning: noticeUrlWarning(p.noticeUrl),
          refundsNeedApproval: connectorFor(p.provider).refundsNeedApproval === true,
          fees: agreed ? feeScheduleView(agreed) : null,
        };
      }),
      baseUrlOffered: settings().allowProviderBaseUrl,
    };
  }),
  connect: connectingProcedure
    .input(
      z.object({
        provider: z.enum(LIVE_PROVIDERS as [string, ...string[]]),
        credentials: z.record(z.string(), z.string().max(500)),
        priority: z.number().int().min(1).max(99).optional(),
        baseUrl: z.string().max(300).optional(),
      }),
    )
    .mutation(({ ctx, input }) => connectTestedProvider(ctx.caller.merchantId, input, { baseUrlAllowed: settings().allowProviderBaseUrl })),
  test: managerProcedure.input(providerId).mutation(({ ctx, input }) => testProviderConnection(ctx.caller.merchantId, input.providerId)),
  /** SeerBit refunds through its API only once it approved the merchant: the merchant says so here. */
  setRefunds: managerProcedure.input(providerId.extend({ enabled: z.boolean() })).mutation(async ({ ctx, input }) => {
    await setRefundsEnabled(ctx.caller.merchantId, input.providerId, input.enabled);
    return { providerId: input.providerId, refundsEnabled: input.enabled };
  }),
  /** Where notices for the merchant's other sales on this account go (empty: nowhere); its recent forwards. */
  setForwardUrl: managerProcedure
    .input(providerId.extend({ forwardUrl: z.string().max(2100).nullable() }))
    .mutation(async ({ ctx, input }) => {
      await setForwardUrl(ctx.caller.merchantId, input.providerId, input.forwardUrl);
      return { providerId: input.providerId };
    }),
  /** The fee schedule the merchant agreed with this provider account (API.md "Fees"); null removes it. */
  setFees: managerProcedure.input(providerId.extend({ fees: feeScheduleShape.nullable() })).mutation(async ({ ctx, input }) => ({
    providerId: input.providerId,
    fees: await setFeeSchedule(ctx.caller.merchantId, input.providerId, input.fees),
  })),
  forwards: managerProcedure
    .input(providerId)
    .query(async ({ ctx, input }) => ({ forwards: await recentForwards(ctx.caller.merchantId, input.providerId) })),
  disconnect: connectingProcedure.input(providerId).mutation(async ({ ctx, input }) => {
    await disconnectProvider(ctx.caller.merchantId, input.providerId);
    return { providerId: input.providerId };
  }),
});
