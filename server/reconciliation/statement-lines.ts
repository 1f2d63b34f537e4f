// What a bank statement is made of, as the API and the dashboard's CSV upload take it, and which provider a line names.
import { z } from "zod";
import type { FieldError } from "../api-error";
import { invalidFields } from "../api-error";
import { dayStartOfDate } from "../payments/calendar";
import { parseAmount } from "../money";

const signedAmount = z
  .string()
  .regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'must be naira with at most 2 decimals, credits positive and debits negative, e.g. "9750.00"');

export const statementInput = z
  .object({
    accountNumber: z.string().regex(/^\d{10}$/, "must be the 10-digit NUBAN of the account the statement is for"),
    lines: z
      .array(
        z
          .object({
            date: z.string().refine((d) => dayStartOfDate(d) !== null, "must be a day as YYYY-MM-DD"),
            amount: signedAmount,
            reference: z.string().max(200).default(""),
            narration: z.string().max(500).default(""),
          })
          .strict()
          .transform((l) => ({
            date: l.date,
            amountKobo: (l.amount.startsWith("-") ? -1 : 1) * (parseAmount(l.amount.replace(/^-/, "")) ?? 0),
            reference: l.reference.trim(),
            narration: l.narration.trim(),
          })),
      )
      .min(1, "must hold at least one line")
      .max(5000, "must hold at most 5000 lines; send a longer statement in parts"),
  })
  .strict();
export type Statement = z.output<typeof statementInput>;
export type StatementLine = Statement["lines"][number];

/** A statement as both doors send it (REST's body, the dashboard's CSV read by statementFromCsv), parsed once: every
 * field at fault named by its line, then a line worth nothing. */
export function parseStatement(body: unknown): Statement {
  const parsed = statementInput.safeParse(body);
  if (!parsed.success) throw invalidFields(statementErrors(parsed.error));
  const problem = parsed.data.lines.map(lineProblem).find((p) => p !== null);
  if (problem) throw invalidFields([problem]);
  return parsed.data;
}

/** Field errors naming the line at fault (`lines.3.amount`), so a long statement's bad line can be found. */
function statementErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") return { field: [...path, issue.keys[0] ?? ""].join("."), message: "is not an accepted field" };
    return { field: path.join(".") || "body", message: issue.message };
  });
}

/** A line worth nothing tells nothing. */
function lineProblem(line: StatementLine, index: number): FieldError | null {
  return line.amountKobo === 0 ? { field: `lines.${index}.amount`, message: "must not be 0.00" } : null;
}

// How banks' narrations name the providers that pay merchants (Flutterwave's settlements often read "FLW").
const PROVIDER_WORDS: [string, RegExp][] = [
  ["sandbox", /\bsandbox\b/i],
  ["paystack", /\bpaystack\b/i],
  ["flutterwave", /\bflutterwave\b|\bflw\b/i],
  ["seerbit", /\bseerbit\b/i],
];

export function namedProviders(text: string): string[] {
  return PROVIDER_WORDS.filter(([, word]) => word.test(text)).map(([provider]) => provider);
}

/**
 * The dashboard's upload: `date,amount,reference,narration` with a header row, fields quoted as spreadsheets write
 * them (a quoted field may hold commas and doubled quotes). Answers the API's body, for the same checks.
 */
export function statementFromCsv(accountNumber: string, csv: string): unknown {
  const rows = parseCsv(csv).filter((r) => r.some((f) => f.trim() !== ""));
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const expected = ["date", "amount", "reference", "narration"];
  if (expected.some((h, i) => header[i] !== h))
    throw invalidFields([{ field: "csv", message: `must start with the header row ${expected.join(",")}` }]);
  return {
    accountNumber,
    lines: rows.map((r) => ({
      date: r[0]?.trim() ?? "",
      amount: (r[1] ?? "").trim().replace(/,/g, ""),
      reference: r[2] ?? "",
      narration: r[3] ?? "",
    })),
  };
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}
