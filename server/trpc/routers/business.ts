// The business profile customers see: everyone on the team reads it; owners and admins change it. A logo is uploaded
// through the Business page's form (a file is larger than a tRPC body may be), removed here.
import { businessProfile, businessProfileInput, removeLogo, setBusinessProfile } from "../../merchants/business-profile";
import { merchantProcedure, router } from "../init";

export const businessRouter = router({
  profile: merchantProcedure("read").query(({ ctx }) => businessProfile(ctx.caller.merchantId)),
  setProfile: merchantProcedure("business.profile")
    .input(businessProfileInput)
    .mutation(({ ctx, input }) => setBusinessProfile(ctx.caller.merchantId, input)),
  removeLogo: merchantProcedure("business.profile").mutation(({ ctx }) => removeLogo(ctx.caller.merchantId)),
});
