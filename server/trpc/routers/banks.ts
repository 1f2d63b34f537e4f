// merchantBanks: the banks the caller's customers can pay from in its mode (API.md "Merchant banks").
import { merchantBanks } from "../../payments/merchant-banks";
import { merchantProcedure } from "../init";

export const merchantBanksProcedure = merchantProcedure("read").query(async ({ ctx }) => ({
  code: "00",
  message: "Successful",
  merchantBanks: await merchantBanks(ctx.scope),
}));
