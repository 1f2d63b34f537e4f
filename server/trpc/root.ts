// The whole tRPC API. Add a domain router here and its procedures are served, typed, and covered by the isolation suite.
import { createCallerFactory, router } from "./init";
import { initiatePaymentProcedure } from "./routers/initiate";
import { keysRouter } from "./routers/keys";

export const appRouter = router({
  initiatePayment: initiatePaymentProcedure,
  keys: keysRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
