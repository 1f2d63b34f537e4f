// The initiation request of API.md, defined once: the tRPC input, the REST body and the dashboard form all use it.
import { z } from "zod";
import { ApiError, invalidFields, type FieldError } from "../api-error";
import { bankByCode } from "../providers/banks";
import { formatKobo, parseAmount, type Kobo } from "../money";

export const PAYMENT_TYPES = ["USSD", "TRANSFER"] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const AMOUNT_LIMITS: Record<PaymentType, { min: Kobo; max: Kobo }> = {
  USSD: { min: 100_00, max: 1_000_000_00 },
  TRANSFER: { min: 100_00, max: 10_000_000_00 },
};

export const AMOUNT_FORMAT = 'must be a string of naira with at most 2 decimals, e.g. "1500.00"';

export function amountField(type: PaymentType) {
  const { min, max } = AMOUNT_LIMITS[type];
  const range = `must be from ${formatKobo(min)} to ${formatKobo(max)} for ${type}`;
  return z.string({ error: AMOUNT_FORMAT }).transform((value, ctx): Kobo => {
    const kobo = parseAmount(value);
    if (kobo === null) ctx.addIssue({ code: "custom", message: AMOUNT_FORMAT });
    else if (kobo < min || kobo > max) ctx.addIssue({ code: "custom", message: range });
    return kobo ?? 0;
  });
}

// Each URL field's error shows an example of its own kind: a redirect is a page for the customer, not a callback.
const urlMessage = (example: string) => `must be an absolute http(s) URL, e.g. ${example}`;

// The URL parser forgives stray spaces, tabs and "http:host"; the contract asks for the URL as it will be used.
function httpUrlField(example: string) {
  const message = urlMessage(example);
  return z
    .string({ error: message })
    .max(2048, "must be at most 2048 characters")
    .refine((v) => /^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(v) && URL.canParse(v) && new URL(v).hostname.length > 0, message);
}

export const httpUrl = httpUrlField("https://shop.example.ng/owo/callback");
const redirectUrl = httpUrlField("https://shop.example.ng/thanks");

const MOBILE_NUMBER = "must be 7 to 15 digits, optionally after a leading +, e.g. 08012345678 or +2348012345678";

const FULL_NAME = "must be the customer's name, 1 to 100 characters";

/** Fields both channels share, in API.md's order. */
export const commonFields = z.object({
  // Characters, not UTF-16 units: "Ọlá" or an emoji counts as a person reads it.
  fullName: z
    .string({ error: FULL_NAME })
    .trim()
    .refine((v) => v.length > 0, FULL_NAME)
    .refine((v) => [...v].length <= 100, "must be at most 100 characters"),
  // API.md: a leading + is how Nigerians write numbers; the digits are what is stored and echoed.
  mobileNumber: z
    .string({ error: MOBILE_NUMBER })
    .regex(/^\+?\d{7,15}$/, MOBILE_NUMBER)
    .transform((v) => v.replace(/^\+/, "")),
  email: z
    .string({ error: "must be an e-mail address, e.g. ada@example.com" })
    .max(254, "must be at most 254 characters")
    .pipe(z.email({ error: "must be an e-mail address, e.g. ada@example.com" })),
  currency: z.literal("NGN", { error: 'must be "NGN"' }),
  country: z.literal("NG", { error: 'must be "NG"' }),
  paymentReference: z
    .string({ error: "must be 1 to 64 of A-Z a-z 0-9 . _ - with at least one letter or digit" })
    .regex(/^(?=.*[A-Za-z0-9])[A-Za-z0-9._-]{1,64}$/, "must be 1 to 64 of A-Z a-z 0-9 . _ - with at least one letter or digit"),
  callbackUrl: httpUrl,
  redirectUrl,
});

const ussdBankCode = z
  .string({ error: "is required for USSD: the customer's 3-digit bank code from GET /api/v2/banks" })
  .refine((code) => bankByCode(code) !== undefined, "is not a known bank code; see GET /api/v2/banks")
  .refine(
    (code) => bankByCode(code)?.ussdCode !== null,
    "is a bank with no USSD service; see GET /api/v2/banks for banks with supportsUssd",
  );

export const ussdRequest = commonFields.extend({
  paymentType: z.literal("USSD"),
  amount: amountField("USSD"),
  bankCode: ussdBankCode,
});

export const transferRequest = commonFields.extend({
  paymentType: z.literal("TRANSFER"),
  amount: amountField("TRANSFER"),
  bankCode: z.null({ error: "must be absent (or null) for TRANSFER: the account is opened at Owo's bank" }).optional(),
});

// API.md (tRPC): a person on the dashboard may leave both URLs out (the merchant's defaults, else Owo's receipt page
// and webhook endpoints only); machines must send both, which checkInitiateRequest holds them to.
const urlsLeftOut = { callbackUrl: commonFields.shape.callbackUrl.optional(), redirectUrl: commonFields.shape.redirectUrl.optional() };

/** The tRPC `initiatePayment` input: the REST body without publicKey. */
export const initiatePaymentInput = z.discriminatedUnion(
  "paymentType",
  [ussdRequest.extend(urlsLeftOut), transferRequest.extend(urlsLeftOut)],
  { error: 'must be "USSD" or "TRANSFER"' },
);

export type InitiatePaymentInput = z.input<typeof initiatePaymentInput>;
export type InitiateRequest = z.output<typeof initiatePaymentInput>;

const FIELD_ORDER = [
  "publicKey",
  "amount",
  "fullName",
  "mobileNumber",
  "email",
  "currency",
  "country",
  "paymentReference",
  "callbackUrl",
  "redirectUrl",
  "paymentType",
  "bankCode",
];

type RawBody = Record<string, unknown>;

/** Every field at fault; when paymentType itself is wrong, the shared fields are still checked. */
function fieldErrors(raw: RawBody, error: z.ZodError): FieldError[] {
  const byField = new Map<string, string>();
  const collect = (e: z.ZodError) => {
    for (const issue of e.issues) {
      const field = String(issue.path[0] ?? "paymentType");
      if (!byField.has(field)) byField.set(field, issue.message);
    }
  };
  collect(error);
  if (byField.has("paymentType")) {
    const shared = commonFields.extend(urlsLeftOut).safeParse(raw);
    if (!shared.success) collect(shared.error);
    if (parseAmount(raw.amount) === null) byField.set("amount", AMOUNT_FORMAT);
  }
  return sortedErrors([...byField].map(([field, message]) => ({ field, message })));
}

const SINGLE_FIELD_CODES = { amount: "S2", currency: "S4", country: "S6", bankCode: "S8" } as const;

/**
 * API.md: one field at fault answers with that field's own code when it was sent and is wrong; a missing
 * field ("a field missing or malformed"), bankCode sent with TRANSFER, or several faults are S5 listing them all.
 */
export function initiateError(errors: FieldError[], paymentType: unknown, missing: ReadonlySet<string> = new Set()): ApiError {
  const [only] = errors;
  if (errors.length === 1 && only && only.field in SINGLE_FIELD_CODES && !missing.has(only.field)) {
    const transferBank = only.field === "bankCode" && paymentType === "TRANSFER";
    if (!transferBank) {
      const code = SINGLE_FIELD_CODES[only.field as keyof typeof SINGLE_FIELD_CODES];
      return new ApiError(code, `Invalid ${only.field}: ${only.field} ${only.message}`, errors);
    }
  }
  return invalidFields(errors);
}

/** Machines send both URLs; a person on the dashboard may leave them out (`urls: "mayBeLeftOut"`). */
type CheckOptions = { publicKey: boolean; urls?: "required" | "mayBeLeftOut" };

const URL_FIELDS = ["callbackUrl", "redirectUrl"] as const;

function sortedErrors(errors: FieldError[]): FieldError[] {
  return errors.sort((a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field));
}

/** The URL fields a request left out, each with its own "must be…" message. */
function urlsNotSent(body: Partial<Record<(typeof URL_FIELDS)[number], unknown>>): FieldError[] {
  return URL_FIELDS.filter((field) => body[field] === undefined).map((field) => {
    const left = commonFields.shape[field].safeParse(undefined);
    return { field, message: left.error?.issues[0]?.message ?? "is required" };
  });
}

/** API.md (tRPC): only a person on the dashboard may leave the URLs out; a machine's request without them is S5. */
export function assertUrlsSent(request: InitiateRequest): void {
  const errors = urlsNotSent(request);
  if (errors.length) throw invalidFields(errors);
}

function checkInitiateRequest(raw: unknown, opts: CheckOptions): { request: InitiateRequest } | { error: ApiError } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return {
      error: new ApiError("S5", "Invalid/Missing parameters = body: send a JSON object", [
        { field: "body", message: "must be a JSON object" },
      ]),
    };
  }
  const body = raw as RawBody;
  const parsed = initiatePaymentInput.safeParse(body);
  const errors = parsed.success ? [] : fieldErrors(body, parsed.error);
  if (opts.urls !== "mayBeLeftOut") {
    errors.push(...urlsNotSent(body));
    sortedErrors(errors);
  }
  if (opts.publicKey && (typeof body.publicKey !== "string" || body.publicKey.length === 0)) {
    errors.unshift({ field: "publicKey", message: "must be your public key, e.g. pk_test_…" });
  }
  if (errors.length || !parsed.success) {
    const missing = new Set(Object.keys(SINGLE_FIELD_CODES).filter((field) => body[field] === undefined || body[field] === null));
    return { error: initiateError(errors, body.paymentType, missing) };
  }
  return { request: parsed.data };
}

/** Parses an initiation body (REST adds publicKey) or throws the ApiError API.md prescribes. */
export function parseInitiateRequest(raw: unknown, opts: CheckOptions): InitiateRequest {
  const checked = checkInitiateRequest(raw, opts);
  if ("error" in checked) throw checked.error;
  return checked.request;
}

/** Why tRPC refused an `initiatePayment` input, in the very words REST answers for the same body. */
export function initiateInputError(raw: unknown, urls: CheckOptions["urls"] = "required"): ApiError | null {
  const checked = checkInitiateRequest(raw, { publicKey: false, urls });
  return "error" in checked ? checked.error : null;
}
