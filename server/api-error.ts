// The core's one error type: an API.md code, its HTTP status, a message and the fields at fault.
import type { z } from "zod";

export type FieldError = { field: string; message: string };

export type ApiCode =
  "S1" | "S2" | "S3" | "S4" | "S5" | "S6" | "S8" | "S14" | "S15" | "S404" | "S405" | "S413" | "S415" | "S429" | "S500" | "S502";

const httpStatusOf: Record<ApiCode, number> = {
  S1: 401,
  S2: 400,
  S3: 403,
  S4: 400,
  S5: 400,
  S6: 400,
  S8: 400,
  S14: 409,
  S15: 409,
  S404: 404,
  S405: 405,
  S413: 413,
  S415: 415,
  S429: 429,
  S500: 500,
  S502: 502,
};

export class ApiError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: ApiCode,
    message: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.httpStatus = httpStatusOf[code];
  }
}

export const unauthorized = (message = "Invalid or expired access token") => new ApiError("S1", message);
export const notFound = (message = "Not found") => new ApiError("S404", message);
export const forbidden = (message: string) => new ApiError("S3", message);

/** S5 listing every field at fault, in the wording of API.md. */
export function invalidFields(errors: FieldError[]): ApiError {
  const names = [...new Set(errors.map((e) => e.field))];
  return new ApiError("S5", `Invalid/Missing parameters = ${names.join(", ")}`, errors);
}

/** A zod failure as field errors; an unknown key is named as the field at fault. */
export function zodFieldErrors(error: z.ZodError, fallbackField = "body"): FieldError[] {
  return error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") return { field: issue.keys[0] ?? fallbackField, message: "is not an accepted field" };
    return { field: String(issue.path[0] ?? fallbackField), message: issue.message };
  });
}

/** A query or body parsed by the schema its tRPC door shares, or S5 naming every field at fault. */
export function parseFields<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidFields(zodFieldErrors(parsed.error));
  return parsed.data;
}

/** As parseFields, for a body that must first be a JSON object at all. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidFields([{ field: "body", message: "must be a JSON object" }]);
  return parseFields(schema, body);
}
