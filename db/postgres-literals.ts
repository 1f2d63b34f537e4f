// Values written into a statement's text, for the simple protocol, which takes no parameters (db/postgres-statements.ts
// `postgresAtCommit`): strings quoted by pg's own escaping, numbers only when whole and within range, each cast to its
// type so that the statement reads the same whatever the values.
import pg from "pg";

export class UnwritableValue extends Error {}

function whole(value: number, type: "bigint" | "integer"): string {
  const fits = type === "integer" ? value >= -2147483648 && value <= 2147483647 : true;
  if (!Number.isSafeInteger(value) || !fits) throw new UnwritableValue(`${value} is not a ${type}`);
  return String(value);
}

export const textLiteral = (value: string | null): string => (value === null ? "null::text" : `${pg.escapeLiteral(value)}::text`);

export const bigintLiteral = (value: number | null): string => (value === null ? "null::bigint" : `${whole(value, "bigint")}::bigint`);

export const integerLiteral = (value: number): string => `${whole(value, "integer")}::integer`;

export const textArrayLiteral = (values: readonly string[]): string =>
  `array[${values.map((v) => pg.escapeLiteral(v)).join(", ")}]::text[]`;

export const bigintArrayLiteral = (values: readonly number[]): string =>
  `array[${values.map((v) => whole(v, "bigint")).join(", ")}]::bigint[]`;
