// The control routes the doubles share by path (double-cli.ts lists them): the customer acting on one of the provider's
// transactions (look at it, pay, decline, let its account expire, …) and the merchant's integration and settlements. The test kit
// (testing/live-merchants.ts customerAt), the e2e specs and the docs' curl lines call the same paths whichever the
// provider; each double answers them from its own books.
import type { DoubleRoute } from "./double-server";

type Handle = DoubleRoute["handle"];

/** GET /_double/transactions/{reference} answered by `inspect`, and POST /_double/transactions/{reference}/{action}
 * for each of the customer's `actions`. */
export function customerRoutes(inspect: Handle, actions: Record<string, Handle>): DoubleRoute[] {
  return [
    { method: "GET", path: /^\/_double\/transactions\/([^/]+)$/, handle: inspect },
    ...Object.entries(actions).map(([action, handle]): DoubleRoute => {
      return { method: "POST", path: new RegExp(`^/_double/transactions/([^/]+)/${action}$`), handle };
    }),
  ];
}

/** The merchant's integration at the provider, where the double keeps one: POST /_double/integration sets how it
 * behaves from now on, POST /_double/settlements settles what it holds, POST /_double/settlements/{id} moves one
 * settlement. */
export function integrationRoutes(integration: Handle, settlements: { settle: Handle; move: Handle }): DoubleRoute[] {
  return [
    { method: "POST", path: /^\/_double\/integration$/, handle: integration },
    { method: "POST", path: /^\/_double\/settlements$/, handle: settlements.settle },
    { method: "POST", path: /^\/_double\/settlements\/([^/]+)$/, handle: settlements.move },
  ];
}
