// Initiating a payment in three steps (API.md "Issuing outside transactions"): reserve the reference (one
// transaction; identical racers wait and replay, a different request is S14), issue at the bank side outside any
// transaction (issue.ts), record the answer (a second transaction). A failed issue removes the reservation. The
// sandbox bank (test mode) is in-process and never the network, so there all three are one transaction.
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { db, dialect, prepared, write, type Tx } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { declaredTables, merchants, payments, type Mode, type PaymentRow } from "../../db/schema";
import { ApiError } from "../api-error";
import { randomDigits } from "../identifiers";
import { bankByCode } from "../providers/banks";
import { issueInProcess, issuesInProcess } from "../providers/registry";
import { settings } from "../settings";
import { assertUrlsSent, type InitiateRequest } from "./initiate-schema";
import { fingerprint } from "./fingerprint";
import { answerFor, resultOf, type InitiateResult } from "./initiate-answer";
import { recordEvent, writeEvent, type RecordOptions } from "./events";
import { insertInitiated } from "./initiation-statement";
import { dropReservation, issuedColumns, issueRequest, issueReserved, reservationStaleAfterMs, type ChannelChoice } from "./issue";
import { clock } from "../clock";
import { countInitiation } from "../metrics/series";

export type PaymentSource = "rest" | "trpc" | "dashboard" | "link" | "seed";

export type Initiation = {
  merchantId: string;
  mode: Mode;
  source: PaymentSource;
  linkId?: string;
  now?: number;
  /** Runs inside the reservation's transaction before the row is made (a link's single-use check); may throw. */
  guard?: (tx: Tx) => Promise<void>;
};

type NewPayment = Required<Omit<typeof payments.$inferInsert, "id">>;

// Every initiation asks these, so they are compiled once (db/client.ts prepared).
const linkingReferenceTaken = prepared((db) =>
  db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.linkingReference, sql.placeholder("candidate")))
    .limit(1),
);
// The merchant and the payment that already holds the reference, if any, in one statement: on PostgreSQL each
// statement of the reservation is a round trip, which cost more CPU than the rows themselves (bench/README.md).
const merchantAndReference = prepared((db) =>
  db
    .select({
      name: merchants.name,
      defaultCallbackUrl: merchants.defaultCallbackUrl,
      defaultRedirectUrl: merchants.defaultRedirectUrl,
      usedId: payments.id,
      fingerprint: payments.requestFingerprint,
      answerJson: payments.answerJson,
      reservedAt: payments.reservedAt,
    })
    .from(merchants)
    .leftJoin(
      payments,
      and(
        eq(payments.merchantId, merchants.id),
        eq(payments.mode, sql.placeholder("mode")),
        eq(payments.paymentReference, sql.placeholder("paymentReference")),
      ),
    )
    .where(eq(merchants.id, sql.placeholder("merchantId"))),
);
// The payment row, every column a placeholder: NewPayment's keys are the table's columns but the id.
const newPaymentColumns = Object.keys(getTableColumns(declaredTables.payments)).filter((column) => column !== "id");
const insertPayment = prepared((tx) =>
  tx
    .insert(payments)
    // Drizzle types insert values per column; placeholders stand for each of them alike.
    .values(Object.fromEntries(newPaymentColumns.map((column) => [column, sql.placeholder(column)])) as unknown as NewPayment)
    .returning({ id: payments.id }),
);

const linkingReferenceCandidate = () => `OWO${randomDigits(17)}`;

export async function newLinkingReference(tx: Tx): Promise<string> {
  for (;;) {
    const candidate = linkingReferenceCandidate();
    if ((await linkingReferenceTaken(tx, { candidate })).length === 0) return candidate;
  }
}

type Claim =
  { kind: "answered"; result: InitiateResult } | { kind: "busy" } | { kind: "reserved"; payment: PaymentRow; choice: ChannelChoice };

/** The row is every value given and its new id: reading its 40 columns back only parsed again what the caller holds. */
async function insertNew(tx: Tx, values: NewPayment): Promise<PaymentRow> {
  const [inserted] = await insertPayment(tx, values);
  if (!inserted) throw new Error("the payment's insert returned no row");
  return { ...values, id: inserted.id };
}

type Merchant = { name: string; defaultCallbackUrl: string | null; defaultRedirectUrl: string | null };
/** What the reference's holder decides (a replay, a refusal, a wait), or the merchant and a stale holder to remove. */
type Looked = { kind: "decided"; claim: Claim } | { kind: "free"; merchant: Merchant; staleId: number | null };

async function lookUp(tx: Tx, req: InitiateRequest, who: Initiation, print: string): Promise<Looked> {
  const [found] = await merchantAndReference(tx, { merchantId: who.merchantId, mode: who.mode, paymentReference: req.paymentReference });
  if (!found) throw new ApiError("S404", "Merchant not found");
  const { usedId, fingerprint: usedPrint, answerJson: usedAnswer, reservedAt: usedReservedAt, ...merchant } = found;
  if (usedId === null) return { kind: "free", merchant, staleId: null };
  if (usedPrint !== print) {
    throw new ApiError("S14", `paymentReference ${req.paymentReference} was already used with a different request`, [
      { field: "paymentReference", message: "is already used by another payment; send a new reference or the exact same request" },
    ]);
  }
  // The fingerprint holds the channel, so a matching one was initiated on req's channel.
  if (usedReservedAt === null)
    return { kind: "decided", claim: { kind: "answered", result: resultOf(req.paymentType, usedAnswer ?? "", true) } };
  if (clock.now() - usedReservedAt < reservationStaleAfterMs()) return { kind: "decided", claim: { kind: "busy" } };
  // Its process died while a provider was being asked: nothing was answered, so the reference is free again.
  return { kind: "free", merchant, staleId: usedId };
}

function newPayment(
  req: InitiateRequest,
  who: Initiation,
  print: string,
  now: number,
  merchant: Merchant,
): { values: NewPayment; choice: ChannelChoice } {
  let choice: ChannelChoice = { channel: "TRANSFER" };
  if (req.paymentType === "USSD") {
    const bank = bankByCode(req.bankCode);
    if (!bank?.ussdCode) throw new ApiError("S8", "Invalid bankCode: see GET /api/v2/banks");
    choice = { channel: "USSD", bank };
  }
  const ttl = req.paymentType === "USSD" ? settings().ussdTtlSeconds : settings().transferTtlSeconds;
  const values: NewPayment = {
    merchantId: who.merchantId,
    mode: who.mode,
    paymentReference: req.paymentReference,
    // Not looked up first: 10^17 numbers make a repeat all but impossible, and should one come, the unique index
    // refuses it and initiate() reserves again with another (saving every initiation a statement).
    linkingReference: linkingReferenceCandidate(),
    paymentType: req.paymentType,
    status: "PENDING",
    amountKobo: req.amount,
    amountPaidKobo: 0,
    amountToRefundKobo: 0,
    amountRefundedKobo: 0,
    feeKobo: 0,
    settlementId: null,
    currency: req.currency,
    country: req.country,
    fullName: req.fullName,
    mobileNumber: req.mobileNumber,
    email: req.email,
    // Left out only from the dashboard: the merchant's saved defaults, else "" (no callback; the
    // customer's browser stays on Owo's receipt and only webhook endpoints hear of it).
    callbackUrl: req.callbackUrl ?? merchant.defaultCallbackUrl ?? "",
    redirectUrl: req.redirectUrl ?? merchant.defaultRedirectUrl ?? "",
    bankCode: null,
    providerReference: null,
    dialCode: null,
    accountNumber: null,
    accountBankName: null,
    walletName: null,
    provider: "sandbox",
    providerAccountId: null,
    issueReference: null,
    reservedAt: clock.now(),
    nextRequeryAt: null,
    requeryCount: 0,
    lastProviderAnswerAt: null,
    requestFingerprint: print,
    answerJson: "",
    source: who.source,
    linkId: who.linkId ?? null,
    eventSequence: 0,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + ttl * 1000,
    paidAt: null,
  };
  return { values, choice };
}

/** The sandbox bank's (test mode) issue, in-process: the row as issued and answered, carrying its first event's number. */
async function issuedInProcess(values: NewPayment, choice: ChannelChoice, merchant: Merchant, now: number): Promise<NewPayment> {
  const outcome = await issueInProcess(issueRequest(values, choice, merchant.name), `${values.linkingReference}-1`);
  const issued = { ...values, ...issuedColumns(values, choice, outcome, now) };
  return { ...issued, answerJson: answerFor(issued), eventSequence: 1 };
}

const initiatedDetail = (who: Initiation, payment: NewPayment): RecordOptions => ({
  amountKobo: payment.amountKobo,
  detail: { source: who.source, provider: payment.provider },
});

/**
 * Step 1: replay, refuse, wait for an identical racer, or reserve the reference as a row. The sandbox bank (test mode)
 * issues in-process, so there the same step issues and records too: the answer is what this returns, and no
 * reservation is ever seen.
 *
 * PostgreSQL, test mode (a link's guard aside): no transaction at all, the read then one statement writing the payment
 * and its first event (initiation-statement.ts): 2 round trips instead of 5. The read is advisory: a holder it finds
 * is answered as in a transaction; one it misses, committed by a racer meanwhile, makes the unique index on (merchant,
 * mode, reference) refuse the insert, and initiate() reads again, as it does after a racer in a read committed
 * transaction, whose read locked nothing either. The insert is atomic: the payment and its event, or neither.
 */
async function reserve(req: InitiateRequest, who: Initiation, print: string, now: number): Promise<Claim> {
  if (dialect() === "postgres" && issuesInProcess(who.mode) && !who.guard) {
    const looked = await lookUp(db(), req, who, print);
    if (looked.kind === "decided") return looked.claim;
    // A stale reservation is removed in the transaction below, with the new row.
    if (looked.staleId === null) {
      const { values, choice } = newPayment(req, who, print, now, looked.merchant);
      const issued = await issuedInProcess(values, choice, looked.merchant, now);
      await insertInitiated(db(), issued, now, initiatedDetail(who, issued));
      return { kind: "answered", result: resultOf(req.paymentType, issued.answerJson, false) };
    }
  }
  return write(
    async (tx) => {
      const looked = await lookUp(tx, req, who, print);
      if (looked.kind === "decided") return looked.claim;
      if (looked.staleId !== null) await tx.delete(payments).where(eq(payments.id, looked.staleId));
      await who.guard?.(tx);
      const { values, choice } = newPayment(req, who, print, now, looked.merchant);
      if (!issuesInProcess(who.mode)) return { kind: "reserved", payment: await insertNew(tx, values), choice };
      const issued = await issuedInProcess(values, choice, looked.merchant, now);
      const payment = await insertNew(tx, issued);
      await writeEvent(tx, payment, "initiated", now, initiatedDetail(who, issued));
      return { kind: "answered", result: resultOf(req.paymentType, issued.answerJson, false) };
    },
    { isolation: "read committed" },
  );
}

/** Counts each initiation for /metrics: issued, replayed (an idempotent repeat) or refused with its API code. */
export async function initiatePayment(req: InitiateRequest, who: Initiation): Promise<InitiateResult> {
  // Test mode's only issuer is the sandbox bank; a live payment's provider is the one that answered.
  let provider = who.mode === "test" ? "sandbox" : "none";
  try {
    if (who.source !== "dashboard") assertUrlsSent(req);
    const answer = await initiate(req, who, (name) => (provider = name));
    countInitiation(who.mode, req.paymentType, provider, answer.replayed ? "replayed" : "issued");
    return answer;
  } catch (err) {
    countInitiation(who.mode, req.paymentType, "none", err instanceof ApiError ? err.code : "error");
    throw err;
  }
}

async function initiate(req: InitiateRequest, who: Initiation, issuedBy: (provider: string) => void): Promise<InitiateResult> {
  const now = who.now ?? clock.now();
  const print = fingerprint(req);
  for (;;) {
    let claim: Claim;
    try {
      claim = await reserve(req, who, print, now);
    } catch (err) {
      // A racer with the same reference inserted first (PostgreSQL, read committed): look again, and replay or wait.
      if (isUniqueViolation(err)) continue;
      throw err;
    }
    if (claim.kind === "answered") return claim.result;
    if (claim.kind === "busy") {
      // An identical request is being issued right now: wait for its answer and replay it.
      await sleep(20);
      continue;
    }
    let answerJson = "";
    try {
      await issueReserved(
        claim.payment,
        claim.choice,
        async (tx, issued) => {
          answerJson = answerFor(issued);
          issuedBy(issued.provider);
          await tx.update(payments).set({ answerJson }).where(eq(payments.id, issued.id));
          return recordEvent(tx, { ...issued, answerJson }, "initiated", now, {
            amountKobo: issued.amountKobo,
            detail: { source: who.source, provider: issued.provider },
          });
        },
        now,
      );
    } catch (err) {
      await dropReservation(claim.payment.id);
      throw err;
    }
    return resultOf(req.paymentType, answerJson, false);
  }
}
