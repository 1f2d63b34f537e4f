// The team: members read by everyone signed in; invites, roles, removals and the audit log for owners and admins.
import { z } from "zod";
import { listAudit } from "../../team/audit";
import { createInvite, inviteInput, listInvites, withdrawInvite } from "../../team/invites";
import { changeRole, listMembers, removeMember, ROLES } from "../../team/members";
import { setTeamTwoFactor } from "../../users/two-factor";
import { merchantProcedure, router } from "../init";

/** Changes of who may do what: the permission table asks a fresh second factor of each (server/auth/permissions.ts). */
const accessProcedure = merchantProcedure("team.changeAccess");

const userId = z.string().min(1).max(64);

export const teamRouter = router({
  members: merchantProcedure("team.read").query(({ ctx }) => listMembers(ctx.caller.merchantId)),
  invites: merchantProcedure("team.manage").query(({ ctx }) => listInvites(ctx.caller.merchantId)),
  invite: merchantProcedure("team.invite")
    .input(inviteInput)
    .mutation(({ ctx, input }) => createInvite(ctx.caller.merchantId, ctx.caller, input)),
  withdrawInvite: accessProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => withdrawInvite(ctx.caller.merchantId, input.id)),
  changeRole: accessProcedure
    .input(z.object({ userId, role: z.enum(ROLES) }))
    .mutation(({ ctx, input }) => changeRole(ctx.caller.merchantId, ctx.caller, input.userId, input.role)),
  remove: accessProcedure
    .input(z.object({ userId }))
    .mutation(({ ctx, input }) => removeMember(ctx.caller.merchantId, ctx.caller, input.userId)),
  requireTwoFactor: merchantProcedure("team.requireTwoFactor")
    .input(z.object({ required: z.boolean() }))
    .mutation(({ ctx, input }) => setTeamTwoFactor(ctx.caller.merchantId, ctx.caller.userId, input.required)),
  audit: merchantProcedure("team.manage")
    .input(
      z
        .object({ before: z.number().int().positive().optional(), limit: z.number().int().min(1).max(200).default(50) })
        .default({ limit: 50 }),
    )
    .query(({ ctx, input }) => listAudit(ctx.caller.merchantId, input)),
});
