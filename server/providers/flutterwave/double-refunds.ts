// The Flutterwave double's refunds (POST /v3/transactions/{id}/refund, GET /v3/refunds and /v3/refunds/{id}): a refund
// starts pending and is paid out refundDelayMs later with the word a test chose (`completed` by default, as Flutterwave's
// refund pages write it, or `successful`), or fails when a refund-fails fault is armed.
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import type { FaultPlan } from "../test-double/faults";
import { amountOf, fields, listWindow, ok, refused } from "./double-answers";
import type { Books, RefundPaidWord } from "./double-books";

export type FlutterwaveRefundDesk = {
  refund: (p: string[], req: DoubleRequest) => DoubleAnswer;
  fetchRefund: (p: string[]) => DoubleAnswer;
  listRefunds: (p: string[], req: DoubleRequest) => DoubleAnswer;
  /** The word a refund is paid out with from now on. */
  paidWord: RefundPaidWord;
  /** Ends the payouts still waiting (the double closes). */
  stop: () => void;
};

export function flutterwaveRefundDesk(books: Books, faults: FaultPlan, refundDelayMs: number): FlutterwaveRefundDesk {
  const timers = new Set<NodeJS.Timeout>();
  function refund([id = ""]: string[], req: DoubleRequest): DoubleAnswer {
    const b = fields(req.json ?? {});
    const c = books.byId(id);
    if (!b) return refused(400, "Invalid JSON payload");
    if (!c) return refused(400, "No transaction was found for this id");
    if (c.status !== "successful") return refused(400, "Only successful transactions can be refunded");
    const left = books.refundable(c);
    const kobo = b.amount === undefined ? left : amountOf(b.amount);
    if (kobo === null) return refused(400, "Invalid amount: a positive amount with at most 2 decimals is required");
    if (kobo > left || kobo <= 0) return refused(400, "Refund amount cannot be greater than the amount left to refund");
    const r = books.openRefund(c, kobo, typeof b.comments === "string" ? b.comments : null);
    const timer = setTimeout(() => {
      timers.delete(timer);
      r.status = faults.take(["refund-fails"]) ? "failed" : desk.paidWord;
    }, refundDelayMs);
    timers.add(timer);
    return ok("Transaction refund initiated", books.refundView(r));
  }

  function fetchRefund([id = ""]: string[]): DoubleAnswer {
    const r = books.refunds.get(Number(id));
    return r ? ok("Refund fetched", books.refundView(r)) : refused(404, "Refund not found");
  }

  /** GET /v3/refunds (get all refunds): filtered by `id` (the transaction), `flw_ref`, `status`, `from`/`to` (dates);
   * ten a page, newest first, `page` from 1. */
  function listRefunds(_p: string[], req: DoubleRequest): DoubleAnswer {
    const q = req.query;
    const window = listWindow(q);
    if ("status" in window) return window;
    const { from, to, page } = window;
    const all = [...books.refunds.values()]
      .filter(
        (r) => (q.get("id") === null || String(r.charge.id) === q.get("id")) && (q.get("status") === null || r.status === q.get("status")),
      )
      .map((r) => books.refundListView(r))
      .filter(
        (r) =>
          (q.get("flw_ref") === null || r.flw_ref === q.get("flw_ref")) &&
          Date.parse(r.created_at) >= from &&
          Date.parse(r.created_at) < to,
      )
      .reverse();
    const data = all.slice((page - 1) * 10, page * 10);
    return ok("Refunds fetched", data, {
      meta: { page_info: { total: all.length, current_page: page, total_pages: Math.max(1, Math.ceil(all.length / 10)) } },
    });
  }

  const desk: FlutterwaveRefundDesk = {
    refund,
    fetchRefund,
    listRefunds,
    paidWord: "completed",
    stop: () => {
      for (const t of timers) clearTimeout(t);
    },
  };
  return desk;
}
