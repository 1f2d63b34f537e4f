// The standard-checkout request (API.md "Standard checkout") as SeerBit's clients send it: amount and reference as
// string or number, product fields null, a hash that is accepted but not needed. REST and tRPC parse it here.
import { z } from "zod";
import { ApiError } from "../api-error";
import { amountField, commonFields, httpUrl, initiateError } from "./initiate-schema";

/** A JSON number is read through its decimal text ("compared as its decimal string"), never through arithmetic. */
const decimalText = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? String(value) : value);

/** `www.shop.ng/done` → `https://www.shop.ng/done`, as SeerBit's checkout reads a URL without a scheme. */
const withScheme = (value: unknown) =>
  typeof value === "string" && value !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(value) ? `https://${value}` : value;

const optionalUrl = z.preprocess(withScheme, httpUrl.nullish());

export const standardCheckoutInput = z.object({
  amount: z.preprocess(decimalText, amountField("TRANSFER")),
  currency: commonFields.shape.currency,
  country: commonFields.shape.country,
  paymentReference: z.preprocess(decimalText, commonFields.shape.paymentReference),
  email: commonFields.shape.email,
  // Optional here: a missing name or number is stored as "" (API.md).
  fullName: z
    .preprocess((v) => (v === null || v === undefined || v === "" ? undefined : v), commonFields.shape.fullName.optional())
    .transform((v) => v ?? ""),
  mobileNumber: z
    .preprocess((v) => (v === null || v === undefined || v === "" ? undefined : decimalText(v)), commonFields.shape.mobileNumber.optional())
    .transform((v) => v ?? ""),
  callbackUrl: optionalUrl,
  redirectUrl: optionalUrl,
  // Accepted as SeerBit's clients send them, and not stored: Owo has no product catalogue or card tokens.
  productId: z.union([z.string().max(256), z.number()]).nullish(),
  productDescription: z.string().max(1024, "must be at most 1024 characters").nullish(),
  tokenize: z.boolean({ error: "must be true or false" }).nullish(),
  // The hash proves the body came from the key holder; the bearer token already does, so it is not required.
  hash: z.string().max(512).nullish(),
  hashType: z.string().max(32).nullish(),
});

export type StandardCheckoutInput = z.input<typeof standardCheckoutInput>;
type Parsed = z.output<typeof standardCheckoutInput>;

/** The request as stored: where the browser returns, where server callbacks go (SeerBit's meaning of callbackUrl). */
export type StandardCheckoutRequest = Omit<
  Parsed,
  "callbackUrl" | "redirectUrl" | "productId" | "productDescription" | "tokenize" | "hash" | "hashType"
> & {
  /** Server callbacks; "" when only callbackUrl was sent (then it is the browser's return). */
  callbackUrl: string;
  /** The browser's return when the payment ends; "" when neither URL was sent. */
  redirectUrl: string;
};

const FIELD_ORDER = [
  "publicKey",
  "amount",
  "currency",
  "country",
  "paymentReference",
  "email",
  "fullName",
  "mobileNumber",
  "callbackUrl",
  "redirectUrl",
];

/** Parses a standard-checkout body (REST adds publicKey) or throws the ApiError API.md prescribes, every field listed. */
export function parseStandardCheckout(raw: unknown, opts: { publicKey: boolean }): StandardCheckoutRequest {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ApiError("S5", "Invalid/Missing parameters = body: send a JSON object", [
      { field: "body", message: "must be a JSON object" },
    ]);
  }
  const body = raw as Record<string, unknown>;
  const parsed = standardCheckoutInput.safeParse(body);
  const errors = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ field: String(issue.path[0] ?? "body"), message: issue.message }));
  if (opts.publicKey && (typeof body.publicKey !== "string" || body.publicKey.length === 0)) {
    errors.unshift({ field: "publicKey", message: "must be your public key, e.g. pk_test_…" });
  }
  if (errors.length || !parsed.success) {
    const unique = [...new Map(errors.map((e) => [e.field, e])).values()].sort(
      (a, b) => FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field),
    );
    const missing = new Set(["amount", "currency", "country"].filter((field) => body[field] === undefined || body[field] === null));
    throw initiateError(unique, "TRANSFER", missing);
  }
  const { callbackUrl, redirectUrl, productId: _p, productDescription: _d, tokenize: _t, hash: _h, hashType: _ht, ...rest } = parsed.data;
  // SeerBit: callbackUrl is where the browser returns, unless redirectUrl is sent too; then callbackUrl gets callbacks.
  return redirectUrl
    ? { ...rest, redirectUrl, callbackUrl: callbackUrl ?? "" }
    : { ...rest, redirectUrl: callbackUrl ?? "", callbackUrl: "" };
}
