// The books for the dashboard and typed clients: the same core as GET /api/v2/balances, /api/v2/ledger/entries and
// /api/v2/fees/quote, and the balances over the last days the Balances page draws.
import { balanceHistory } from "../../books/balance-history";
import { balancesOf } from "../../books/balances";
import { entriesQuery, listEntries } from "../../books/entries";
import { quoteFees, quoteQuery, quoteRefusal } from "../../books/quote";
import { merchantProcedure, refusedAsRest, router } from "../init";

export const booksRouter = router({
  balances: merchantProcedure("read").query(({ ctx }) => balancesOf(ctx.scope)),
  history: merchantProcedure("read").query(({ ctx }) => balanceHistory(ctx.scope)),
  entries: merchantProcedure("read")
    .input(entriesQuery)
    .query(({ ctx, input }) => listEntries(ctx.scope, input)),
  quote: merchantProcedure("read")
    .use(refusedAsRest(quoteRefusal))
    .input(quoteQuery)
    .query(({ ctx, input }) => quoteFees(ctx.scope, input)),
});
