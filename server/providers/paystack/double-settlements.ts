// The Paystack double's settlements, as Paystack's Settlements API shows them (https://paystack.com/docs/api/settlement/;
// samples in github.com/PaystackOSS/doc-code-snippets src/api/settlements/{list,transactions}/response.json; the
// parameters in PaystackOSS/openapi dist/paystack.yaml, operations settlements_fetch and settlements_transaction):
// GET /settlement (total_processed, total_fees, total_amount, deductions as one total, effective_amount, status one of
// success, processing, pending, failed) and GET /settlement/{id}/transactions (the transactions as verify shows them).
// The double settles from its own books — the transactions its customers paid, with its fees, and the refunds it
// processed, each refund naming the settlement that deducted it (GET /refund's `settlement`) — never from Owo's.
// Paystack settles nothing in test mode: there the list stays empty and the control route refuses.
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import { fields, koboOf, ok, refused } from "./double-answers";
import type { DoubleTransaction, PaystackLedger } from "./double-ledger";
import type { DoubleRefund } from "./double-ledger";

const STATUSES = ["success", "processing", "pending", "failed"] as const;
type Status = (typeof STATUSES)[number];

type DoubleSettlement = {
  id: number;
  status: Status;
  transactions: DoubleTransaction[];
  refunds: DoubleRefund[];
  /** Deductions other than refunds (a chargeback, a reserve): part of `deductions`, listed nowhere else. */
  otherDeductions: number;
  settlementDate: Date;
  createdAt: Date;
  updatedAt: Date;
};

const controlError = (status: number, error: string): DoubleAnswer => ({ status, body: { error } });

export type SettlementDesk = {
  list: (p: string[], req: DoubleRequest) => DoubleAnswer;
  transactions: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** Control: POST /_double/settlements {"status"?, "deductions"?, "omit"?: [reference]} settles what the double holds. */
  settle: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** Control: POST /_double/settlements/{id} {"status"} moves a settlement (pending → success, success → failed). */
  move: (p: string[], req: DoubleRequest) => DoubleAnswer;
};

/** Paystack's pages: `perPage` (default 50) and `page` from 1, with its meta. */
function paged<T>(all: T[], q: URLSearchParams): { data: T[]; meta: Record<string, number> } | null {
  const perPage = Number(q.get("perPage") ?? "50");
  const page = Number(q.get("page") ?? "1");
  if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(page) || page < 1) return null;
  return {
    data: all.slice((page - 1) * perPage, page * perPage),
    meta: { total: all.length, skipped: (page - 1) * perPage, perPage, page, pageCount: Math.max(1, Math.ceil(all.length / perPage)) },
  };
}

export function settlementDesk(ledger: PaystackLedger): SettlementDesk {
  const settlements = new Map<number, DoubleSettlement>();
  const settled = new Set<DoubleTransaction>();
  let nextId = 3090024;

  function view(s: DoubleSettlement): Record<string, unknown> {
    const processed = s.transactions.reduce((sum, t) => sum + ledger.charged(t), 0);
    const fees = s.transactions.reduce((sum, t) => sum + t.fees, 0);
    const deductions = s.refunds.reduce((sum, r) => sum + r.amount, 0) + s.otherDeductions;
    return {
      id: s.id,
      domain: ledger.domain,
      status: s.status,
      currency: "NGN",
      integration: 412829,
      total_amount: processed - fees,
      effective_amount: processed - fees - deductions,
      total_fees: fees,
      total_processed: processed,
      deductions: deductions === 0 ? null : deductions,
      settlement_date: s.settlementDate.toISOString(),
      settled_by: null,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    };
  }

  function list(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const status = q.get("status");
    const from = q.get("from") === null ? -Infinity : Date.parse(q.get("from") ?? "");
    const to = q.get("to") === null ? Infinity : Date.parse(q.get("to") ?? "");
    if (Number.isNaN(from) || Number.isNaN(to))
      return refused(400, "Invalid date: from and to must be dates", { type: "validation_error" });
    if (status !== null && !STATUSES.some((s) => s === status))
      return refused(400, `status must be one of ${STATUSES.join(", ")}`, { type: "validation_error" });
    const all = [...settlements.values()]
      .filter((s) => (status === null || s.status === status) && s.createdAt.getTime() >= from && s.createdAt.getTime() <= to)
      .reverse()
      .map(view);
    const page = paged(all, q);
    if (!page) return refused(400, "perPage and page must be positive integers", { type: "validation_error" });
    return { status: 200, body: { status: true, message: "Settlements retrieved", ...page } };
  }

  function transactions([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const s = settlements.get(Number(id));
    if (!s) return refused(404, "Settlement not found");
    const page = paged(
      s.transactions.map((t) => ledger.transactionView(t)),
      req.query,
    );
    if (!page) return refused(400, "perPage and page must be positive integers", { type: "validation_error" });
    const volume = s.transactions.reduce((sum, t) => sum + ledger.charged(t), 0);
    return {
      status: 200,
      body: { status: true, message: "Transactions retrieved", data: page.data, meta: { ...page.meta, total_volume: volume } },
    };
  }

  function settle(_p: string[], req: DoubleRequest): DoubleAnswer {
    if (ledger.domain === "test") return controlError(409, "Paystack settles nothing in test mode");
    const b = fields(req.json ?? {}) ?? {};
    const status = b.status ?? "success";
    if (!STATUSES.some((s) => s === status)) return controlError(400, `status: one of ${STATUSES.join(", ")}`);
    const other = b.deductions === undefined ? 0 : koboOf(b.deductions);
    if (other === null) return controlError(400, "deductions: a positive integer of kobo");
    const omit = Array.isArray(b.omit) ? b.omit.map(String) : [];
    // A transaction reversed since it was paid was paid in all the same: its chargeback is deducted as a refund.
    const paidIn = [...ledger.transactions.values()].filter(
      (t) => (t.status === "success" || t.status === "reversed") && !settled.has(t) && !omit.includes(t.reference),
    );
    const refunds = [...ledger.refunds.values()].filter((r) => r.status === "processed" && r.settlement === undefined);
    if (paidIn.length === 0 && refunds.length === 0) return controlError(409, "nothing to settle");
    const now = new Date();
    const s: DoubleSettlement = {
      id: nextId++,
      status: status as Status,
      transactions: paidIn,
      refunds,
      otherDeductions: other,
      settlementDate: now,
      createdAt: now,
      updatedAt: now,
    };
    for (const t of paidIn) settled.add(t);
    for (const r of refunds) r.settlement = s.id;
    settlements.set(s.id, s);
    return ok("Settled", view(s));
  }

  function move([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const s = settlements.get(Number(id));
    if (!s) return controlError(404, `no settlement ${id}`);
    const status = fields(req.json)?.status;
    if (!STATUSES.some((x) => x === status)) return controlError(400, `status: one of ${STATUSES.join(", ")}`);
    s.status = status as Status;
    s.updatedAt = new Date();
    return ok("Moved", view(s));
  }

  return { list, transactions, settle, move };
}
