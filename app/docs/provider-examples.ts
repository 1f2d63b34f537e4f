// The /docs/providers examples, kept here so server/providers/docs-providers.test.ts runs exactly what the page shows.

/** `npm run owo -- …` arguments per provider; `<merchantId>` is the one the page tells the reader to put in. */
export const providerAddCommands = {
  paystack: ["provider", "add", "paystack", "--merchant", "<merchantId>", "--priority", "1", "--secret-key", "sk_live_3f9a2c7d1e8b4a6f0c5d9e2b", "--json"],
  flutterwave: [
    "provider", "add", "flutterwave", "--merchant", "<merchantId>", "--priority", "2",
    "--secret-key", "FLWSECK-7d2e9b4c1a8f3e6d0b5c9a2e-X", "--secret-hash", "a-long-random-string-you-chose", "--json",
  ],
  seerbit: ["provider", "add", "seerbit", "--merchant", "<merchantId>", "--priority", "3", "--public-key", "SBPUBK_9XH2LQ4TZ7", "--secret-key", "SBSECK_6PR3MW8YK1", "--json"],
} as const;

export const keysCreateCommand = ["keys", "create", "--merchant", "<merchantId>", "--mode", "live", "--json"] as const;

/** What `provider add --json` prints (the id and URL differ each time). */
export const providerAddAnswer = { providerId: "prv_…", provider: "paystack", noticeUrl: "https://pay.example.ng/api/v2/providers/prv_…/notices" };

export const shell = (args: readonly string[]) => `npm run owo -- ${args.map((a) => (/^[\w.<>@:/-]+$/.test(a) ? a : `'${a}'`)).join(" ")}`;

/** What Owo checks on every notice, in order; the page lists it and the notice tests assert each step. */
export const NOTICE_CHECKS = [
  "The signature, first: Paystack's x-paystack-signature (HMAC-SHA512 of the raw body with your secret key), Flutterwave's verif-hash (your secret hash). A wrong or missing one is answered 401 and nothing moves. SeerBit's notices are unsigned: Owo never trusts one alone.",
  "The provider's event or transaction id: a notice seen before is answered 200 and applied once.",
  "Only payments issued through the provider account whose URL received the notice can move; a valid notice for no payment is answered 200 and kept.",
  "Owo asks the provider for its own record of the payment (a query) and the notice must agree with it on outcome, amount and currency before anything is credited. A notice that disagrees moves nothing.",
  "The time the provider recorded the money decides whether the payment was still alive.",
];
