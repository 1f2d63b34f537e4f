// Callbacks in the dashboard: webhook endpoints, the signing secret, and each delivery with its attempts.
import { z } from "zod";
import { deliveriesOfEndpoint, deliveriesOfPayment } from "../../webhooks/delivery-log";
import { resendDelivery } from "../../webhooks/resend";
import { addEndpoint, deleteEndpoint, disableEndpoint, enableEndpoint, listEndpoints } from "../../webhooks/endpoints";
import { revealOrCreateSigningSecret, rollSigningSecret } from "../../webhooks/signing-secrets";
import { merchantProcedure, originOf, router } from "../init";

const endpointId = z.object({ endpointId: z.string().min(1).max(64) });

export const webhooksRouter = router({
  endpoints: router({
    list: merchantProcedure("read").query(({ ctx }) => listEndpoints(ctx.scope)),
    add: merchantProcedure("change")
      .input(z.object({ url: z.string(), description: z.string().optional() }))
      .mutation(({ ctx, input }) => addEndpoint(ctx.scope, input)),
    disable: merchantProcedure("change")
      .input(endpointId)
      .mutation(({ ctx, input }) => disableEndpoint(ctx.scope, input.endpointId)),
    enable: merchantProcedure("change")
      .input(endpointId)
      .mutation(({ ctx, input }) => enableEndpoint(ctx.scope, input.endpointId)),
    delete: merchantProcedure("change")
      .input(endpointId)
      .mutation(({ ctx, input }) => deleteEndpoint(ctx.scope, input.endpointId)),
  }),
  // A mutation even to read: the secret is shown only to staff, and asking for it may create the mode's first one.
  secret: router({
    reveal: merchantProcedure("change").mutation(async ({ ctx }) => ({
      secret: await revealOrCreateSigningSecret(ctx.scope),
    })),
    roll: merchantProcedure("secrets.roll")
      .input(z.object({ graceSeconds: z.number().int().min(0).max(86400).default(0) }))
      .mutation(async ({ ctx, input }) => ({
        secret: await rollSigningSecret(ctx.caller.merchantId, ctx.caller.mode, input.graceSeconds, originOf(ctx)),
      })),
  }),
  deliveries: router({
    byPayment: merchantProcedure("read")
      .input(z.object({ paymentReference: z.string().min(1).max(64) }))
      .query(({ ctx, input }) => deliveriesOfPayment(ctx.scope, input.paymentReference)),
    byEndpoint: merchantProcedure("read")
      .input(endpointId)
      .query(({ ctx, input }) => deliveriesOfEndpoint(ctx.scope, input.endpointId)),
    resend: merchantProcedure("change")
      .input(z.object({ deliveryId: z.number().int().positive() }))
      .mutation(({ ctx, input }) => resendDelivery(ctx.scope, input.deliveryId)),
  }),
});
