// Flutterwave's settlements in Owo's words (API.md "Settlements"), from its reference
// (https://developer.flutterwave.com/reference/endpoints/settlements; samples in github.com/Flutterwave/Node-v3
// documentation/settlements.md, ./fixtures/settlement-sdk.json): GET /v3/settlements (page, from) and
// GET /v3/settlements/{id} with its transactions. Statuses `pending` and `completed`; a flagged settlement
// (`flag_message`, or the status `flagged`) is withheld; each transaction's `stampduty_charge` and `merchant_fee` are
// adjustment lines, as is a chargeback (API.md takes Flutterwave's fee to be `app_fee`); `destination: "autowallet"`
// pays the Flutterwave wallet. A settlement listing fewer `transactions` than its `transaction_count` is not recorded
// half read. `meta` is not read: the sample's ids there (906256…) are not its transactions' (984411…). The refunds it
// deducted (`refund_meta`, an array or a JSON string) are read from GET /v3/refunds/{id} and their payments' references
// from GET /v3/transactions/{id}/verify. Amounts are naira numbers, read as two-decimal text into kobo, never through a
// float.
import { z } from "zod";
import { parseNairaAnswer } from "../../money";
import { ProviderUnavailable } from "../connector";
import type { ProviderAnswer } from "../provider-call";
import {
  readAgain,
  readOne,
  type SettlementLineReading,
  type SettlementRead,
  type SettlementReading,
  type SettlementStatus,
} from "../settlement-reading";

const MAX_PAGES = 50;

/** A naira figure; `none` stands for one the answer leaves null or out (a deduction: 0), or undefined if it must carry it. */
const nairaFigure = (none?: number) =>
  z.unknown().transform((v, ctx) => {
    const k = parseNairaAnswer(v ?? none);
    if (k === null) ctx.addIssue({ code: "custom", message: "not a naira amount with at most 2 decimals" });
    return k ?? 0;
  });
const naira = nairaFigure();
/** A deduction, which the samples write as 0 and older settlements as null when there is none. */
const deduction = nairaFigure(0);
const id = z.union([z.number().int(), z.string().regex(/^\d+$/)]).transform(String);
const ids = z
  .union([z.array(id), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === null || v === undefined || v === "") return [];
    if (Array.isArray(v)) return v;
    let list: unknown = null;
    try {
      list = JSON.parse(v);
    } catch {
      // not JSON: refused below like any other shape
    }
    const parsed = z.array(id).safeParse(list);
    if (!parsed.success) ctx.addIssue({ code: "custom", message: "refund_meta is not a list of refund ids" });
    return parsed.data ?? [];
  });
const listed = z.object({ id, status: z.string(), flag_message: z.string().nullish() });

/** completed is paid; a flagged one (its status, or a flag_message) is withheld; anything else is still pending. */
function statusOf(s: { status: string; flag_message?: string | null }): SettlementStatus {
  if (s.status === "completed") return "paid";
  return s.status === "flagged" || (s.flag_message ?? "") !== "" ? "withheld" : "pending";
}
const transaction = z.object({
  id,
  tx_ref: z.string().nullish(),
  /** The amount asked: the published sample's settlement transactions do not carry it, only what was charged. */
  amount: naira.optional(),
  charged_amount: naira,
  app_fee: naira,
  merchant_fee: deduction,
  stampduty_charge: deduction,
});
const detail = z.object({
  id,
  status: z.string(),
  currency: z.string(),
  gross_amount: naira,
  app_fee: naira,
  merchant_fee: deduction,
  chargeback: deduction,
  refund: deduction,
  stampduty_charge: deduction,
  net_amount: naira,
  transaction_count: z.number().int().nonnegative().nullish(),
  destination: z.string().nullish(),
  flag_message: z.string().nullish(),
  refund_meta: ids,
  processed_date: z.string().nullish(),
  due_date: z.string().nullish(),
  created_at: z.string().nullish(),
  transactions: z.array(transaction).default([]),
});
const refund = z.object({ id, tx_id: id, amount_refunded: naira });
const envelope = <T extends z.ZodType>(data: T) => z.object({ status: z.literal("success"), data });

type Get = (path: string) => Promise<ProviderAnswer>;

async function read<T extends z.ZodType>(get: Get, path: string, schema: T): Promise<{ body: z.output<T>; raw: unknown }> {
  const answer = await get(path);
  const parsed = schema.safeParse(answer.body);
  if (answer.status !== 200 || !parsed.success)
    throw new ProviderUnavailable("flutterwave", `GET ${path.split("?")[0] ?? path}: answered ${answer.status} without what Owo reads`);
  return { body: parsed.data, raw: answer.body };
}

/** The settlements Flutterwave made since `since` (epoch ms), each with its lines, but those `known` as paid. */
export async function* readFlutterwaveSettlements(
  get: Get,
  since: number,
  known: ReadonlyMap<string, SettlementStatus>,
): AsyncGenerator<SettlementRead> {
  const from = new Date(since).toISOString().slice(0, 10);
  const found: z.output<typeof listed>[] = [];
  const pages = envelope(z.array(listed)).extend({
    meta: z
      .object({ page_info: z.object({ total_pages: z.number().int() }).partial() })
      .partial()
      .optional(),
  });
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) throw new ProviderUnavailable("flutterwave", `GET /v3/settlements: more than ${MAX_PAGES} pages`);
    const { body } = await read(get, `/v3/settlements?from=${from}&page=${page}`, pages);
    found.push(...body.data);
    if (page >= (body.meta?.page_info?.total_pages ?? 1)) break;
  }
  for (const s of found) {
    if (!readAgain(known.get(s.id), statusOf(s))) continue;
    yield await readOne(s.id, () => readFlutterwaveSettlement(get, s.id));
  }
}

/** One settlement, as GET /v3/settlements/{id} answers it, with its lines. */
export async function readFlutterwaveSettlement(get: Get, settlementId: string): Promise<SettlementReading> {
  const { body } = await read(get, `/v3/settlements/${settlementId}`, envelope(detail));
  return reading(get, body.data);
}

async function reading(get: Get, s: z.output<typeof detail>): Promise<SettlementReading> {
  if (typeof s.transaction_count === "number" && s.transactions.length !== s.transaction_count)
    throw new ProviderUnavailable(
      "flutterwave",
      `settlement ${s.id}: ${s.transactions.length} of its ${s.transaction_count} transactions listed`,
    );
  const lines: SettlementLineReading[] = [];
  let borne = 0;
  for (const t of s.transactions) {
    const reference = t.tx_ref ?? null;
    // A fee the customer bore on top of the amount asked is in charged_amount and app_fee alike: neither is the
    // merchant's. Without `amount` the line cannot tell it, so recording takes it off by Owo's credit (chargedOnly).
    const asked = Math.min(t.amount ?? t.charged_amount, t.charged_amount);
    const onTop = t.charged_amount - asked;
    borne += Math.min(onTop, t.app_fee);
    const fee = Math.max(0, t.app_fee - onTop);
    lines.push({
      kind: "payment",
      providerTransactionId: t.id,
      providerReference: reference,
      grossKobo: asked,
      feeKobo: fee,
      netKobo: asked - fee,
      ...(t.amount === undefined ? { chargedOnly: true as const } : {}),
    });
    if (t.stampduty_charge > 0) lines.push(adjustment(`stampduty:${t.id}`, reference, t.stampduty_charge));
    if (t.merchant_fee > 0) lines.push(adjustment(`merchantfee:${t.id}`, reference, t.merchant_fee));
  }
  for (const refundId of s.refund_meta) {
    const r = (await read(get, `/v3/refunds/${refundId}`, envelope(refund))).body.data;
    const paid = await read(get, `/v3/transactions/${r.tx_id}/verify`, envelope(z.object({ tx_ref: z.string() })));
    lines.push({
      kind: "refund",
      providerTransactionId: r.id,
      providerReference: paid.body.data.tx_ref,
      grossKobo: -r.amount_refunded,
      feeKobo: 0,
      netKobo: -r.amount_refunded,
    });
  }
  if (s.chargeback > 0) lines.push(adjustment(`chargeback:${s.id}`, null, s.chargeback));
  return {
    providerSettlementId: s.id,
    status: statusOf(s),
    destination: s.destination === "autowallet" ? "wallet" : "bank",
    currency: s.currency,
    grossKobo: s.gross_amount - borne,
    feeKobo: s.app_fee - borne,
    refundKobo: s.refund,
    adjustmentKobo: s.stampduty_charge + s.merchant_fee + s.chargeback,
    netKobo: s.net_amount,
    settledAt: instant(s.processed_date) ?? instant(s.due_date) ?? instant(s.created_at),
    lines,
  };
}

function adjustment(transactionId: string, reference: string | null, kobo: number): SettlementLineReading {
  return {
    kind: "adjustment",
    providerTransactionId: transactionId,
    providerReference: reference,
    grossKobo: -kobo,
    feeKobo: 0,
    netKobo: -kobo,
  };
}

function instant(s: string | null | undefined): number | null {
  const at = s ? Date.parse(s) : NaN;
  return Number.isNaN(at) ? null : at;
}
