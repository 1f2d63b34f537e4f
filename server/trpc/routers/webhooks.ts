// Callbacks in the dashboard: webhook endpoints, the signing secret, and each delivery with its attempts.
import { z } from "zod";
import { deliveriesOfEndpoint, deliveriesOfPayment } from "../../webhooks/delivery-log";
import { resendDelivery } from "../../webhooks/deliveries";
import { addEndpoint, deleteEndpoint, disableEndpoint, enableEndpoint, listEndpoints } from "../../webhooks/endpoints";
import { revealOrCreateSigningSecret, rollSigningSecret } from "../../webhooks/signing-secrets";
import { authedProcedure, originOf, router, sensitiveStaffProcedure, staffProcedure } from "../init";

const endpointId = z.object({ endpointId: z.string().min(1).max(64) });

export const webhooksRouter = router({
  endpoints: router({
    list: authedProcedure.query(({ ctx }) => listEndpoints(ctx.caller.merchantId, ctx.caller.mode)),
    add: staffProcedure
      .input(z.object({ url: z.string(), description: z.string().optional() }))
      .mutation(({ ctx, input }) => addEndpoint(ctx.caller.merchantId, ctx.caller.mode, input)),
    disable: staffProcedure
      .input(endpointId)
      .mutation(({ ctx, input }) => disableEndpoint(ctx.caller.merchantId, ctx.caller.mode, input.endpointId)),
    enable: staffProcedure
      .input(endpointId)
      .mutation(({ ctx, input }) => enableEndpoint(ctx.caller.merchantId, ctx.caller.mode, input.endpointId)),
    delete: staffProcedure
      .input(endpointId)
      .mutation(({ ctx, input }) => deleteEndpoint(ctx.caller.merchantId, ctx.caller.mode, input.endpointId)),
  }),
  // A mutation even to read: the secret is shown only to staff, and asking for it may create the mode's first one.
  secret: router({
    reveal: staffProcedure.mutation(async ({ ctx }) => ({
      secret: await revealOrCreateSigningSecret(ctx.caller.merchantId, ctx.caller.mode),
    })),
    roll: sensitiveStaffProcedure
      .input(z.object({ graceSeconds: z.number().int().min(0).max(86400).default(0) }))
      .mutation(async ({ ctx, input }) => ({
        secret: await rollSigningSecret(ctx.caller.merchantId, ctx.caller.mode, input.graceSeconds, originOf(ctx)),
      })),
  }),
  deliveries: router({
    byPayment: authedProcedure
      .input(z.object({ paymentReference: z.string().min(1).max(64) }))
      .query(({ ctx, input }) => deliveriesOfPayment(ctx.caller.merchantId, ctx.caller.mode, input.paymentReference)),
    byEndpoint: authedProcedure
      .input(endpointId)
      .query(({ ctx, input }) => deliveriesOfEndpoint(ctx.caller.merchantId, ctx.caller.mode, input.endpointId)),
    resend: staffProcedure
      .input(z.object({ deliveryId: z.number().int().positive() }))
      .mutation(({ ctx, input }) => resendDelivery(input.deliveryId, ctx.caller.merchantId, ctx.caller.mode)),
  }),
});
