// Bank statements (API.md "Reconciliation", POST /api/v2/bank-statements): each credit line naming a provider is
// matched to a paid or expected bank settlement by net amount and date (± 3 days); a match gives the settlement the
// line's reference as its bankReference and makes an expected one paid (booked, announced). A line naming a provider
// that matches nothing, and a paid settlement of a day the statement covers that no line confirmed, are bank_unmatched.
// A line equal in all four fields to one already imported for the account is the same line: sending twice changes
// nothing. One transaction for the whole statement.
import { and, eq, gte, inArray, isNull, lte } from "drizzle-orm";
import { write, type Tx } from "../../db/client";
import { bankStatementLines, settlements, type Mode, type SettlementRow } from "../../db/schema";
import { clock } from "../clock";
import { newId } from "../identifiers";
import { DAY_MS, dayStartOf, dayStartOfDate } from "../payments/calendar";
import { formatKobo } from "../money";
import { ledgerQueue } from "../books/post";
import { bookSettlementStatus } from "../settlements/booking";
import { publishSettlementPaid } from "../settlements/events";
import { closeExceptions, openExceptions } from "./exceptions";
import { namedProviders, type Statement, type StatementLine } from "./statement-lines";
import type { Scope } from "../merchants/scope";

const WINDOW_DAYS = 3;

type LineRow = typeof bankStatementLines.$inferSelect;
export type LineMatch = "matched" | "unmatched" | "other_income" | "debit";

function lineView(row: LineRow, duplicate: boolean) {
  const named = namedProviders(`${row.reference} ${row.narration}`).length > 0;
  const match: LineMatch = row.amountKobo < 0 ? "debit" : row.settlementId ? "matched" : named ? "unmatched" : "other_income";
  return {
    lineId: row.id,
    date: row.date,
    amount: formatKobo(row.amountKobo),
    reference: row.reference,
    narration: row.narration,
    settlementId: row.settlementId,
    match,
    duplicate,
  };
}
export type StatementLineView = ReturnType<typeof lineView>;

export async function importBankStatement(scope: Scope, statement: Statement): Promise<StatementLineView[]> {
  // A line that confirms a settlement books its status: the merchant's books are held from the start, so the import
  // runs once rather than again after learning of the queue at a posting.
  return write((tx) => importIn(tx, scope, statement, clock.now()), { queues: [ledgerQueue(scope.merchantId, scope.mode)] });
}

async function importIn(
  tx: Tx,
  { merchantId, mode }: Scope,
  { accountNumber, lines }: Statement,
  now: number,
): Promise<StatementLineView[]> {
  const answer: StatementLineView[] = [];
  for (const line of lines) answer.push(await importLine(tx, merchantId, mode, accountNumber, line, now));
  await flagUnconfirmedSettlements(tx, merchantId, mode, lines, now);
  return answer;
}

/** Carries a preview's answer out of the transaction it rolls back. */
class Previewed extends Error {
  constructor(readonly lines: StatementLineView[]) {
    super("statement preview rolled back");
  }
}

/**
 * What importing the statement would match, before anyone imports it: the import itself, run and rolled back, so the
 * preview can never disagree with the import (one line confirming a settlement another line then cannot take).
 */
export async function previewBankStatement(scope: Scope, statement: Statement): Promise<StatementLineView[]> {
  try {
    await write(
      async (tx) => {
        throw new Previewed(await importIn(tx, scope, statement, clock.now()));
      },
      { queues: [ledgerQueue(scope.merchantId, scope.mode)] },
    );
  } catch (err) {
    if (err instanceof Previewed) return err.lines;
    throw err;
  }
  throw new Error("a statement preview always rolls back");
}

async function importLine(tx: Tx, merchantId: string, mode: Mode, accountNumber: string, line: StatementLine, now: number) {
  const same = and(
    eq(bankStatementLines.merchantId, merchantId),
    eq(bankStatementLines.mode, mode),
    eq(bankStatementLines.accountNumber, accountNumber),
    eq(bankStatementLines.date, line.date),
    eq(bankStatementLines.amountKobo, line.amountKobo),
    eq(bankStatementLines.reference, line.reference),
    eq(bankStatementLines.narration, line.narration),
  );
  const [known] = await tx.select().from(bankStatementLines).where(same);
  if (known) return lineView(known, true);
  const id = newId("bsl");
  const confirmed = line.amountKobo > 0 ? await matchCredit(tx, merchantId, mode, line) : [];
  const [row] = await tx
    .insert(bankStatementLines)
    .values({ id, merchantId, mode, accountNumber, ...line, settlementId: confirmed[0]?.id ?? null, importedAt: now })
    .returning();
  if (!row) throw new Error("statement line insert returned nothing");
  for (const s of confirmed) await confirmSettlement(tx, s, row, now);
  if (line.amountKobo > 0 && confirmed.length === 0 && namedProviders(`${line.reference} ${line.narration}`).length > 0)
    await openExceptions(
      tx,
      merchantId,
      mode,
      [
        {
          kind: "bank_unmatched",
          subject: `line:${id}`,
          settlementId: null,
          paymentReference: null,
          expectedKobo: null,
          actualKobo: line.amountKobo,
        },
      ],
      now,
    );
  return lineView(row, false);
}

/** The merchant's payouts to the bank that no statement line has confirmed yet. */
const unconfirmedBankPayouts = (merchantId: string, mode: Mode) =>
  and(
    eq(settlements.merchantId, merchantId),
    eq(settlements.mode, mode),
    eq(settlements.destination, "bank"),
    isNull(settlements.bankReference),
  );

const dayOf = (s: SettlementRow) => dayStartOf(s.settledAt ?? s.createdAt);

/**
 * The settlements one credit line confirms: a single one of its net, preferring the one the line names, then the
 * nearest day; else a run of consecutive expected days of one provider whose nets add up to it (a bank that pays
 * several days at once).
 */
async function matchCredit(tx: Tx, merchantId: string, mode: Mode, line: StatementLine): Promise<SettlementRow[]> {
  const text = `${line.reference} ${line.narration}`.toLowerCase();
  const day = dayStartOfDate(line.date) ?? 0;
  const candidates = (
    await tx
      .select()
      .from(settlements)
      .where(
        and(
          unconfirmedBankPayouts(merchantId, mode),
          inArray(settlements.status, ["paid", "expected"]),
          // settledAt may be null for an expected day: its createdAt is then the bound the day check below refines.
          gte(settlements.createdAt, day - 40 * DAY_MS),
        ),
      )
  ).filter((s) => Math.abs(dayOf(s) - day) <= WINDOW_DAYS * DAY_MS);
  const names = (s: SettlementRow) => text.includes(s.providerSettlementId.toLowerCase());
  const named = namedProviders(text);
  const eligible = candidates.filter((s) => names(s) || named.includes(s.provider));
  const single = eligible
    .filter((s) => s.netKobo === line.amountKobo)
    .sort(
      (a, b) => Number(names(b)) - Number(names(a)) || Math.abs(dayOf(a) - day) - Math.abs(dayOf(b) - day) || a.createdAt - b.createdAt,
    );
  if (single[0]) return [single[0]];
  for (const provider of named) {
    const days = eligible.filter((s) => s.status === "expected" && s.provider === provider).sort((a, b) => dayOf(a) - dayOf(b));
    for (let start = 0; start < days.length; start++) {
      let sum = 0;
      for (let end = start; end < days.length && sum < line.amountKobo; end++) {
        sum += days[end]?.netKobo ?? 0;
        if (sum === line.amountKobo && end > start) return days.slice(start, end + 1);
      }
    }
  }
  return [];
}

async function confirmSettlement(tx: Tx, s: SettlementRow, line: LineRow, now: number): Promise<void> {
  const [updated] = await tx
    .update(settlements)
    .set({ bankReference: line.reference || line.id, status: "paid", settledAt: s.settledAt ?? now, updatedAt: now })
    .where(eq(settlements.id, s.id))
    .returning();
  if (!updated) throw new Error("settlement update returned nothing");
  if (s.status !== "paid") {
    await bookSettlementStatus(tx, updated, s.status, now);
    await publishSettlementPaid(tx, updated, now);
  }
  await closeExceptions(
    tx,
    s.merchantId,
    s.mode,
    "bank_unmatched",
    [`settlement:${s.id}`],
    `Found on the bank statement: ${line.date} ${formatKobo(line.amountKobo)} ${line.reference}`.trim(),
    now,
  );
}

/** Paid bank settlements of the days this statement covers (the span of its lines' dates) that no line confirmed. */
async function flagUnconfirmedSettlements(tx: Tx, merchantId: string, mode: Mode, lines: StatementLine[], now: number) {
  const days = lines.map((l) => dayStartOfDate(l.date) ?? 0);
  const first = Math.min(...days);
  const last = Math.max(...days) + DAY_MS - 1;
  const unconfirmed = await tx
    .select()
    .from(settlements)
    .where(
      and(
        unconfirmedBankPayouts(merchantId, mode),
        eq(settlements.status, "paid"),
        gte(settlements.settledAt, first),
        lte(settlements.settledAt, last),
      ),
    );
  await openExceptions(
    tx,
    merchantId,
    mode,
    unconfirmed.map((s) => ({
      kind: "bank_unmatched" as const,
      subject: `settlement:${s.id}`,
      settlementId: s.id,
      paymentReference: null,
      expectedKobo: s.netKobo,
      actualKobo: null,
    })),
    now,
  );
}
