// Mail kept in the outbox while no SMTP is configured, for owners to read.
import { readOutbox } from "../../mail/outbox";
import { merchantProcedure, router } from "../init";

export const mailRouter = router({
  outbox: merchantProcedure("mail.read").query(({ ctx }) => readOutbox(ctx.caller.merchantId, ctx.caller.userId)),
});
