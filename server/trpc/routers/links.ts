// Payment links: anyone on the team reads them; staff create, deactivate and set the default URLs.
import { z } from "zod";
import { linkDefaults, setLinkDefaults } from "../../links/defaults";
import { createLinkInput, linkDefaultsInput } from "../../links/link-schema";
import { createLink, linkDetail, listLinks, setLinkActive } from "../../links/links";
import { merchantProcedure, router } from "../init";

const linkId = z.object({ id: z.string().min(1).max(64) });

export const linksRouter = router({
  list: merchantProcedure("read").query(({ ctx }) => listLinks(ctx.scope)),
  byId: merchantProcedure("read")
    .input(linkId)
    .query(({ ctx, input }) => linkDetail(ctx.scope, input.id)),
  create: merchantProcedure("change")
    .input(createLinkInput)
    .mutation(({ ctx, input }) => createLink(ctx.scope, input)),
  setActive: merchantProcedure("change")
    .input(linkId.extend({ active: z.boolean() }))
    .mutation(({ ctx, input }) => setLinkActive(ctx.scope, input.id, input.active)),
  defaults: merchantProcedure("read").query(({ ctx }) => linkDefaults(ctx.caller.merchantId)),
  setDefaults: merchantProcedure("change")
    .input(linkDefaultsInput)
    .mutation(({ ctx, input }) => setLinkDefaults(ctx.caller.merchantId, input)),
});
