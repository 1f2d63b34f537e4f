// The whole tRPC API. Add a domain router here and its procedures are served, typed, and covered by the isolation suite.
import { createCallerFactory, router } from "./init";
import { accountRouter } from "./routers/account";
import { merchantBanksProcedure } from "./routers/banks";
import { checkoutRouter } from "./routers/checkout";
import { initiatePaymentProcedure } from "./routers/initiate";
import { keysRouter } from "./routers/keys";
import { linksRouter } from "./routers/links";
import { mailRouter } from "./routers/mail";
import { paymentsRouter } from "./routers/payments";
import { providersRouter } from "./routers/providers";
import { sandboxRouter } from "./routers/sandbox";
import { settlementsRouter } from "./routers/settlements";
import { booksRouter } from "./routers/books";
import { businessRouter } from "./routers/business";
import { reconciliationRouter } from "./routers/reconciliation";
import { teamRouter } from "./routers/team";
import { standardCheckoutProcedure } from "./routers/standard-checkout";
import { verifyPaymentProcedure } from "./routers/verify";
import { webhooksRouter } from "./routers/webhooks";

export const appRouter = router({
  initiatePayment: initiatePaymentProcedure,
  standardCheckout: standardCheckoutProcedure,
  verifyPayment: verifyPaymentProcedure,
  merchantBanks: merchantBanksProcedure,
  payments: paymentsRouter,
  checkout: checkoutRouter,
  sandbox: sandboxRouter,
  settlements: settlementsRouter,
  books: booksRouter,
  reconciliation: reconciliationRouter,
  keys: keysRouter,
  providers: providersRouter,
  links: linksRouter,
  team: teamRouter,
  business: businessRouter,
  mail: mailRouter,
  account: accountRouter,
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
