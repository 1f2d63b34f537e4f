// What a customer on Owo's hosted pages (checkout, payment links) is told when no provider could issue their payment:
// one plain sentence. Which provider account failed and what the provider said are the merchant's business (each
// account's health on the Providers page records it) and the logs', never an anonymous visitor's.
import { ApiError } from "../api-error";
import { log } from "../logger";

export const PROVIDERS_DOWN_FOR_CUSTOMERS =
  "Your payment could not be set up just now: the bank could not be reached. Please try again in a moment, or choose another way to pay.";

/** Runs a customer's request; a provider failure reaches them as a plain S502, its details the logs. */
export async function asCustomerSees<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "S502") throw err;
    log.warn({ failures: err.errors }, "a customer's payment could not be issued by any provider");
    throw new ApiError("S502", PROVIDERS_DOWN_FOR_CUSTOMERS);
  }
}
