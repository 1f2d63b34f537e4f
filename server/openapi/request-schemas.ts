// The request bodies of the OpenAPI document (document.ts) as JSON Schema: from the zod schemas the doors parse with,
// in API.md's field order and words, and standard checkout's written out where its preprocessing has no JSON Schema.
import { z } from "zod";
import { formatKobo } from "../money";
import { AMOUNT_LIMITS, transferRequest, ussdRequest, type PaymentType } from "../payments/initiate-schema";

export type JsonSchema = { [key: string]: unknown; properties?: Record<string, Record<string, unknown>> };

/** Request bodies as clients must send them (`io: "input"`): the amount is a string before its transform to kobo. */
export function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as JsonSchema;
  return rest;
}

const publicKey = z.string().min(1);

/** Every field of the REST body, in API.md's order; the type makes a new field of the schema a compile error until described here. */
function initiateFields(
  type: PaymentType,
): Record<keyof typeof ussdRequest.shape | keyof typeof transferRequest.shape | "publicKey", string> {
  const { min, max } = AMOUNT_LIMITS[type];
  return {
    publicKey: "The public key of the token's merchant (pk_test_… or pk_live_…)",
    amount: `Naira as a string of digits with at most 2 decimals, from ${formatKobo(min)} to ${formatKobo(max)} for ${type}`,
    fullName: "The customer's name, 1 to 100 characters after trimming",
    mobileNumber: "7 to 15 digits, optionally after a leading + (+2348012345678); stored and echoed as the digits",
    email: "An e-mail address, at most 254 characters",
    currency: "Only NGN",
    country: "Only NG",
    paymentReference:
      "Yours: 1 to 64 of A-Z a-z 0-9 . _ - with at least one letter or digit; case-sensitive; unique per merchant and mode. The same request sent again with it answers the first answer again; a different one is 409 S14",
    callbackUrl: "Absolute http(s) URL (at most 2048 characters) that receives the payment's signed callbacks",
    redirectUrl:
      "Absolute http(s) URL (at most 2048 characters); the checkout page sends the customer's browser to redirectUrl?paymentReference=…&status=… when the payment ends",
    paymentType: type,
    bankCode:
      type === "USSD"
        ? "The customer's 3-digit bank code, a bank with supportsUssd in GET /api/v2/banks"
        : "Absent or null: the account is opened at Owo's bank",
  };
}

/** One branch of the initiation union as the REST body carries it: publicKey added, fields in API.md's order and words. */
export function initiateBranch(type: PaymentType): JsonSchema {
  const branch = type === "USSD" ? ussdRequest : transferRequest;
  const schema = jsonSchema(z.object({ publicKey }).extend(branch.shape));
  const properties = Object.entries(initiateFields(type)).flatMap(([field, description]) => {
    const property = schema.properties?.[field];
    return property ? [[field, { ...property, description }] as const] : [];
  });
  return {
    ...schema,
    properties: Object.fromEntries(properties),
    description: `Initiate a ${type} payment. Other fields are ignored and never stored.`,
  };
}

/** Written out rather than generated: the parser's preprocessing (numbers read as text, scheme added) has no JSON Schema. */
export function standardCheckoutRequestSchema(): JsonSchema {
  const { min, max } = AMOUNT_LIMITS.TRANSFER;
  const oneOf = (description: string, ...types: Record<string, unknown>[]) => ({ anyOf: types, description });
  const [string, number, boolean, nothing] = [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }];
  const url = { type: "string", maxLength: 2048 };
  return {
    type: "object",
    required: ["publicKey", "amount", "currency", "country", "paymentReference", "email"],
    properties: {
      publicKey: { type: "string", minLength: 1, description: "The public key of the token's merchant" },
      amount: oneOf(
        `Naira with at most 2 decimals, as a string or a JSON number, from ${formatKobo(min)} to ${formatKobo(max)} (USSD is offered up to 1000000.00)`,
        string,
        number,
      ),
      currency: { const: "NGN" },
      country: { const: "NG" },
      paymentReference: oneOf(
        "Yours, as a string or a number (compared as its decimal string); the rules of initiation's paymentReference",
        string,
        number,
      ),
      email: { type: "string", maxLength: 254, description: "The customer's e-mail address" },
      fullName: oneOf('Optional; stored as "" when missing', string, nothing),
      mobileNumber: oneOf('Optional, 7 to 15 digits; stored as "" when missing', string, number, nothing),
      callbackUrl: oneOf(
        "Where the browser returns when the payment ends, unless redirectUrl is sent too: then the signed callbacks go here. www.shop.ng/done gets https://",
        url,
        nothing,
      ),
      redirectUrl: oneOf("Where the browser returns when the payment ends (redirectUrl?paymentReference=…&status=…)", url, nothing),
      productId: oneOf("Accepted, not stored", string, number, nothing),
      productDescription: oneOf("Accepted, not stored", string, nothing),
      tokenize: oneOf("Accepted, not stored: Owo takes no cards", boolean, nothing),
      hash: oneOf(
        "SHA-256 over the fields as SeerBit's clients compute it: accepted, not required (the bearer token authenticates)",
        string,
        nothing,
      ),
      hashType: oneOf("e.g. sha256", string, nothing),
    },
  };
}
