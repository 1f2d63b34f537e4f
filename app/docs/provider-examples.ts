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

/**
 * Live mode tried on this machine, start to finish, against Paystack's test double (`npm run double`): the page shows
 * these steps in order and server/providers/docs-providers.test.ts runs them as printed (only the ports and the values
 * each step prints and the next one asks for are put in, as a reader would). `<name>` marks what the reader pastes.
 */
export const LOCAL_OWO = "http://localhost:3000";
export const LOCAL_DOUBLE = "http://127.0.0.1:4010";
export const LOCAL_SHOP = "http://localhost:8080";

export const localWalk = {
  start: "OWO_ALLOW_PROVIDER_BASE_URL=1 OWO_ALLOW_PRIVATE_CALLBACKS=1 npm start",
  double: "npm run double -- paystack --port 4010",
  doublePrints: { double: "paystack", url: LOCAL_DOUBLE },
  /** The double's own secret key unless started with --secret-key. */
  doubleKey: "sk_test_owo_double",
  merchantList: "npm run owo -- merchant list",
  connect: `npm run owo -- provider add paystack --merchant <merchantId> --secret-key sk_test_owo_double --base-url ${LOCAL_DOUBLE} --json`,
  webhook: `curl -s -X PUT ${LOCAL_DOUBLE}/_double/webhook-url -H 'Content-Type: application/json' -d '{"url": "<noticeUrl>"}'`,
  keys: "npm run owo -- keys create --merchant <merchantId> --mode live --json",
  token: `curl -s -X POST ${LOCAL_OWO}/api/v2/encrypt/keys -H 'Content-Type: application/json' \\
  -d '{"key": "<secretKey>.<publicKey>"}'`,
  initiate: `curl -s -X POST ${LOCAL_OWO}/api/v2/payments/initiates \\
  -H 'Authorization: Bearer <token>' -H 'Content-Type: application/json' \\
  -d '{"publicKey": "<publicKey>", "amount": "2500", "fullName": "Ada Obi", "mobileNumber": "08012345678",
       "email": "ada@example.com", "currency": "NGN", "country": "NG", "paymentReference": "first-live-1",
       "paymentType": "USSD", "bankCode": "058",
       "callbackUrl": "${LOCAL_SHOP}/owo/callback", "redirectUrl": "${LOCAL_SHOP}/thanks"}'`,
  pay: `curl -s -X POST ${LOCAL_DOUBLE}/_double/transactions/<providerreference>/pay -H 'Content-Type: application/json' -d '{}'`,
  verify: `curl -s ${LOCAL_OWO}/api/v3/payments/query/first-live-1 -H 'Authorization: Bearer <token>'`,
} as const;
