// Mail kept in the outbox while no SMTP is configured, for owners to read.
import { readOutbox } from "../../mail/outbox";
import { router, userPermittedProcedure } from "../init";

export const mailRouter = router({
  outbox: userPermittedProcedure("mail.read").query(({ ctx }) => readOutbox(ctx.caller.merchantId, ctx.caller.userId)),
});
