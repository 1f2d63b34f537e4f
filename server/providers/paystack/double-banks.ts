// The Paystack double's List Banks (GET /bank, https://paystack.com/docs/api/miscellaneous/#bank; parameters in
// PaystackOSS/openapi dist/paystack.yaml, bank_list). Paged as Paystack pages it: with `use_cursor=true`, `perPage`
// banks from the `next` (or before the `previous`) cursor, highest id first, each cursor "bank:<id>" in base64 — its
// own sample (dist/api/miscellaneous/bank/response.json in PaystackOSS/doc-code-snippets) lists ids 174…170 with
// meta.next "YmFuazoxNjk=", bank:169; without, `perPage` from the `page` offset.
import type { DoubleAnswer, DoubleRequest } from "../test-double/double-server";
import { refused } from "./double-answers";

/**
 * Some of Paystack's Nigerian banks: `id` is what the refund retry takes as bank_id, `code` the bank's own code. Those of
 * the sample keep its ids; the others are the double's own (GTBank's 9 is the RefundRetry example's): Owo must read them
 * from List Banks, never assume them.
 */
export const PAYSTACK_BANKS = [
  { id: 1, name: "Access Bank", slug: "access-bank", code: "044" },
  { id: 9, name: "Guaranty Trust Bank", slug: "guaranty-trust-bank", code: "058" },
  { id: 21, name: "Zenith Bank", slug: "zenith-bank", code: "057" },
  { id: 7, name: "First Bank of Nigeria", slug: "first-bank-of-nigeria", code: "011" },
  { id: 174, name: "Abbey Mortgage Bank", slug: "abbey-mortgage-bank", code: "801" },
  { id: 173, name: "Coronation Merchant Bank", slug: "coronation-merchant-bank", code: "559" },
  { id: 172, name: "Infinity MFB", slug: "infinity-mfb", code: "50457" },
  { id: 171, name: "OPay Digital Services Limited (OPay)", slug: "paycom", code: "999992" },
  { id: 170, name: "Petra Mircofinance Bank Plc", slug: "petra-microfinance-bank-plc", code: "50746" },
  { id: 302, name: "Moniepoint MFB", slug: "moniepoint-mfb-ng", code: "50515" },
]
  .sort((a, b) => b.id - a.id)
  .map((b) => ({
    ...b,
    longcode: "",
    gateway: null,
    pay_with_bank: false,
    active: true,
    is_deleted: false,
    country: "Nigeria",
    currency: "NGN",
    type: "nuban",
    createdAt: "2016-07-14T10:04:29.000Z",
    updatedAt: "2020-02-18T08:06:44.000Z",
  }));

const cursorOf = (id: number) => Buffer.from(`bank:${id}`).toString("base64");
const idOf = (cursor: string) => /^bank:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"))?.[1];

export function listBanks(_p: string[], req: DoubleRequest): DoubleAnswer {
  const q = req.query;
  const nigerian = (q.get("country") ?? "nigeria") === "nigeria" && (q.get("currency") ?? "NGN") === "NGN";
  const all = nigerian ? PAYSTACK_BANKS : [];
  const perPage = Number(q.get("perPage") ?? "50");
  if (!Number.isInteger(perPage) || perPage < 1) return refused(400, "perPage must be a positive integer", { type: "validation_error" });
  const ok = (data: typeof all, meta: Record<string, unknown>): DoubleAnswer => ({
    status: 200,
    body: { status: true, message: "Banks retrieved", data, meta },
  });
  if (q.get("use_cursor") !== "true") {
    const page = Number(q.get("page") ?? "1");
    if (!Number.isInteger(page) || page < 1) return refused(400, "page must be a positive integer", { type: "validation_error" });
    return ok(all.slice((page - 1) * perPage, page * perPage), { perPage, page, total: all.length });
  }
  const next = q.get("next");
  const previous = q.get("previous");
  const at = (cursor: string) => all.findIndex((b) => String(b.id) === idOf(cursor));
  const from = next ? at(next) : previous ? Math.max(0, at(previous) - perPage) : 0;
  const to = previous ? at(previous) : from + perPage;
  if (from < 0 || to < 0) return refused(400, "Invalid cursor", { type: "validation_error" });
  const after = all[to];
  return ok(all.slice(from, to), {
    next: after ? cursorOf(after.id) : null,
    previous: from > 0 && all[from] ? cursorOf(all[from].id) : null,
    perPage,
  });
}
