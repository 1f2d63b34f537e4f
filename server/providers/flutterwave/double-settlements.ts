// The Flutterwave double's settlements, as Flutterwave's reference shows them
// (https://developer.flutterwave.com/reference/endpoints/settlements; samples in github.com/Flutterwave/Node-v3
// documentation/settlements.md): GET /v3/settlements (page, from, to; twenty a page, newest first, `meta` an array of
// ids) and GET /v3/settlements/{id} (with its `transactions`, and `meta` as a JSON string, as the sample writes it; the
// sample's ids there, 906256…, are not its transactions' own, 984411…, and neither are the double's). Each transaction
// gives what was charged (`charged_amount`, with a fee the customer paid on top), `app_fee` and `settlement_amount`,
// never the amount asked, as in the sample. Statuses `pending` and `completed`; a flagged settlement (`flag_message`) is held back;
// `destination` is `account` (the bank) or `autowallet` (the Flutterwave wallet); each transaction of ₦10,000 or more
// carries the ₦50 stamp duty (`stampduty_charge`); refunds deducted are listed in `refund_meta`, and each refund then
// names its settlement (GET /v3/refunds' `settlement_id`). Settled from the double's own books, never from Owo's.
// Flutterwave settles nothing on test keys: there the list stays empty and the control route refuses.
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import { controlError, listWindow, refused } from "./double-answers";
import { flutterwaveFee as fee, nairaNumber, type Books, type Charge, type Refund } from "./double-books";

type Status = "pending" | "completed";
type DoubleSettlement = {
  id: number;
  status: Status;
  flag: string | null;
  destination: "account" | "autowallet";
  charges: Charge[];
  /** What `meta` lists: ids of the double's own for the settled transactions, as the sample's are. */
  items: number[];
  refunds: Refund[];
  chargeback: number;
  createdAt: string;
  processedAt: string | null;
};

/** Nigeria's electronic money transfer levy, as Flutterwave deducts it: ₦50 on each receipt of ₦10,000 or more. */
const STAMP_DUTY_KOBO = 5000;
const STAMP_DUTY_FROM_KOBO = 1_000_000;
const PAGE_SIZE = 20;

export type FlutterwaveSettlementDesk = {
  list: (p: string[], req: DoubleRequest) => DoubleAnswer;
  fetch: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** Control: POST /_double/settlements {"status"?, "flag"?, "destination"?, "chargeback"? kobo, "omit"?: [tx_ref]}. */
  settle: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** Control: POST /_double/settlements/{id} {"status"?, "flag"?: string | null}. */
  move: (p: string[], req: DoubleRequest) => DoubleAnswer;
};

function fields(json: unknown): Record<string, unknown> {
  return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
}

export function flutterwaveSettlementDesk(books: Books, testKeys: boolean): FlutterwaveSettlementDesk {
  const settlements = new Map<number, DoubleSettlement>();
  const settled = new Set<Charge>();
  let nextId = 41748;
  let nextItem = 906256;

  const stampDuty = (c: Charge) => (c.paidKobo >= STAMP_DUTY_FROM_KOBO ? STAMP_DUTY_KOBO : 0);

  function view(s: DoubleSettlement, metaAsText: boolean) {
    const gross = s.charges.reduce((sum, c) => sum + c.paidKobo + c.customerFeeKobo, 0);
    const fees = s.charges.reduce((sum, c) => sum + fee(c.paidKobo), 0);
    const duty = s.charges.reduce((sum, c) => sum + stampDuty(c), 0);
    const refunded = s.refunds.reduce((sum, r) => sum + r.amountKobo, 0);
    return {
      id: s.id,
      account_id: 20937,
      merchant_name: "Owo Double Merchant",
      merchant_email: "merchant@example.com",
      settlement_account: "0031318432",
      bank_code: "063",
      transaction_date: s.createdAt,
      due_date: s.createdAt,
      processed_date: s.processedAt,
      status: s.status,
      is_local: true,
      currency: "NGN",
      gross_amount: nairaNumber(gross),
      app_fee: nairaNumber(fees),
      merchant_fee: 0,
      chargeback: nairaNumber(s.chargeback),
      refund: nairaNumber(refunded),
      stampduty_charge: nairaNumber(duty),
      net_amount: nairaNumber(gross - fees - duty - refunded - s.chargeback),
      transaction_count: s.charges.length,
      processor_ref: null,
      disburse_ref: s.status === "completed" ? `RV3E${s.id}` : null,
      disburse_message: null,
      channel: "web",
      destination: s.destination,
      fx_data: null,
      flag_message: s.flag,
      meta: metaAsText ? JSON.stringify(s.items) : s.items,
      refund_meta: s.refunds.length > 0 ? s.refunds.map((r) => r.id) : null,
      chargeback_meta: s.chargeback > 0 ? [`CHB-${s.id}`] : null,
      source_bankcode: null,
      created_at: s.createdAt,
    };
  }

  function line(c: Charge) {
    return {
      customer_email: c.customer.email,
      flw_ref: c.flwRef,
      tx_ref: c.txRef,
      id: c.id,
      charged_amount: nairaNumber(c.paidKobo + c.customerFeeKobo),
      app_fee: nairaNumber(fee(c.paidKobo)),
      merchant_fee: 0,
      stampduty_charge: nairaNumber(stampDuty(c)),
      settlement_amount: nairaNumber(c.paidKobo + c.customerFeeKobo - fee(c.paidKobo) - stampDuty(c)),
      status: "successful",
      payment_entity: c.type === "ussd" ? "ussd" : "bank_transfer",
      transaction_date: c.createdAt.slice(0, 10),
      currency: "NGN",
      card_locale: "LOCAL",
      rrn: "N/A",
      subaccount_settlement: 0,
    };
  }

  function list(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const window = listWindow(q);
    if ("status" in window) return window;
    const { from, to, page } = window;
    const all = [...settlements.values()].filter((s) => Date.parse(s.createdAt) >= from && Date.parse(s.createdAt) < to).reverse();
    return {
      status: 200,
      body: {
        status: "success",
        message: "Settlements fetched",
        meta: {
          page_info: {
            total: all.length,
            current_page: page,
            total_pages: Math.max(1, Math.ceil(all.length / PAGE_SIZE)),
            page_size: PAGE_SIZE,
          },
        },
        data: all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((s) => view(s, false)),
      },
    };
  }

  function fetch([id = ""]: string[]): DoubleAnswer {
    const s = settlements.get(Number(id));
    if (!s) return refused(404, "Settlement not found");
    return {
      status: 200,
      body: { status: "success", message: "Settlement fetched", data: { ...view(s, true), transactions: s.charges.map(line) } },
    };
  }

  function settle(_p: string[], req: DoubleRequest): DoubleAnswer {
    if (testKeys) return controlError(409, "Flutterwave settles nothing on test keys");
    const b = fields(req.json);
    const status = b.status ?? "completed";
    if (status !== "pending" && status !== "completed") return controlError(400, "status: pending or completed");
    if (b.flag !== undefined && typeof b.flag !== "string") return controlError(400, "flag: why Flutterwave holds it back");
    const destination = b.destination ?? "account";
    if (destination !== "account" && destination !== "autowallet") return controlError(400, "destination: account or autowallet");
    const chargeback = b.chargeback ?? 0;
    if (typeof chargeback !== "number" || !Number.isSafeInteger(chargeback) || chargeback < 0)
      return controlError(400, "chargeback: kobo, a whole number");
    const omit = Array.isArray(b.omit) ? b.omit.map(String) : [];
    const charges = [...books.charges.values()].filter((c) => c.status === "successful" && !settled.has(c) && !omit.includes(c.txRef));
    const refunds = [...books.refunds.values()].filter(
      (r) => (r.status === "completed" || r.status === "successful") && r.settlementId === undefined,
    );
    if (charges.length === 0 && refunds.length === 0) return controlError(409, "nothing to settle");
    const now = new Date().toISOString();
    const s: DoubleSettlement = {
      id: nextId++,
      status,
      flag: typeof b.flag === "string" ? b.flag : null,
      destination,
      charges,
      items: charges.map(() => nextItem++),
      refunds,
      chargeback,
      createdAt: now,
      processedAt: status === "completed" ? now : null,
    };
    for (const c of charges) settled.add(c);
    for (const r of refunds) r.settlementId = s.id;
    settlements.set(s.id, s);
    return { status: 200, body: { status: "success", message: "Settled", data: view(s, false) } };
  }

  function move([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const s = settlements.get(Number(id));
    if (!s) return controlError(404, `no settlement ${id}`);
    const b = fields(req.json);
    if (b.status !== undefined && b.status !== "pending" && b.status !== "completed")
      return controlError(400, "status: pending or completed");
    if (b.flag !== undefined && b.flag !== null && typeof b.flag !== "string")
      return controlError(400, "flag: a message, or null to release it");
    if (b.status !== undefined) s.status = b.status;
    if (b.flag !== undefined) s.flag = b.flag;
    if (s.status === "completed") s.processedAt ??= new Date().toISOString();
    return { status: 200, body: { status: "success", message: "Moved", data: view(s, false) } };
  }

  return { list, fetch, settle, move };
}
