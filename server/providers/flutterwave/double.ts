// A test double of Flutterwave's v3 API, as strict as its docs (./connector.ts lists them): a Bearer secret key or
// 401, NGN only, amounts with at most 2 decimals, a fresh tx_ref per charge, USSD only for the banks listed. It plays
// the customer through /_double/* control routes and injects faults on demand. Run it as its own process:
// `npm run double -- flutterwave --port N` (server/providers/double-cli.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { formatKobo, parseNairaAnswer } from "../../payments/money";
import { Books, type Charge, type RefundOutcome, type WebhookFault } from "./double-books";
import { USSD_BANK_CODES } from "./wire";

export type FlutterwaveDoubleOptions = { secretKey: string; secretHash: string; webhookUrl?: string };
type ApiFault = { mode: "5xx" | "hang" | "drop"; path?: string; times?: number };
type Json = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Flutterwave's error envelope. */
function refuse(res: ServerResponse, status: number, message: string): void {
  send(res, status, { status: "error", message, data: null });
}

async function readJson(req: IncomingMessage): Promise<Json | null> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (chunks.length === 0) return {};
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}

/** Positive kobo from Flutterwave's `amount` (a naira string or number, at most 2 decimals), else null. */
function amountOf(v: unknown): number | null {
  const k = parseNairaAnswer(v);
  return k !== null && k > 0 ? k : null;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function createFlutterwaveDouble(options: FlutterwaveDoubleOptions): { server: Server; books: Books; close: () => Promise<void> } {
  const config = { ...options };
  const books = new Books(() => config.secretHash);
  books.webhookUrl = config.webhookUrl;
  let apiFault: ApiFault | null = null;
  const sockets = new Set<Socket>();

  async function charge(req: IncomingMessage, res: ServerResponse, type: string | null): Promise<void> {
    const body = await readJson(req);
    if (!body) return refuse(res, 400, "Invalid JSON payload");
    if (type !== "ussd" && type !== "bank_transfer") return refuse(res, 400, "Invalid charge type");
    const txRef = body.tx_ref;
    if (typeof txRef !== "string" || txRef === "") return refuse(res, 400, "tx_ref is required");
    if (books.charges.has(txRef)) return refuse(res, 400, "Duplicate transaction reference");
    const kobo = amountOf(body.amount);
    if (kobo === null) return refuse(res, 400, "Invalid amount: a positive amount with at most 2 decimals is required");
    if (body.currency !== "NGN") return refuse(res, 400, `${type === "ussd" ? "USSD" : "Bank transfer"} charges are only supported for NGN`);
    if (typeof body.email !== "string" || !EMAIL.test(body.email)) return refuse(res, 400, "A valid email is required");
    const customer = {
      email: body.email,
      name: typeof body.fullname === "string" ? body.fullname : "Anonymous customer",
      phone: typeof body.phone_number === "string" ? body.phone_number : null,
    };
    const narration = typeof body.narration === "string" ? body.narration : customer.name;
    if (type === "ussd") {
      if (typeof body.account_bank !== "string" || !USSD_BANK_CODES.has(body.account_bank)) return refuse(res, 400, "USSD is not supported for this account_bank");
      const c = books.open({ txRef, type, amountKobo: kobo, customer, narration });
      const data = { ...books.transaction(c), payment_code: c.paymentCode };
      return send(res, 200, { status: "success", message: "Charge initiated", data, meta: { authorization: { mode: "ussd", note: `*566*002*${c.paymentCode}#` } } });
    }
    const expires = body.expires;
    if (expires !== undefined && (typeof expires !== "number" || !Number.isSafeInteger(expires) || expires < 1)) return refuse(res, 400, "expires must be a whole number of seconds");
    const c = books.open({ txRef, type, amountKobo: kobo, customer, narration }, expires);
    const account = c.account!;
    send(res, 200, {
      status: "success",
      message: "Charge initiated",
      meta: {
        authorization: {
          transfer_reference: c.flwRef,
          transfer_account: account.number,
          transfer_bank: account.bank,
          account_expiration: account.expiresAt,
          transfer_note: `Please make a bank transfer to ${narration}`,
          transfer_amount: formatKobo(kobo),
          mode: "banktransfer",
        },
      },
    });
  }

  async function refund(req: IncomingMessage, res: ServerResponse, c: Charge | undefined): Promise<void> {
    const body = await readJson(req);
    if (!body) return refuse(res, 400, "Invalid JSON payload");
    if (!c) return refuse(res, 400, "No transaction was found for this id");
    if (c.status !== "successful") return refuse(res, 400, "Only successful transactions can be refunded");
    const left = books.refundable(c);
    const kobo = body.amount === undefined ? left : amountOf(body.amount);
    if (kobo === null) return refuse(res, 400, "Invalid amount: a positive amount with at most 2 decimals is required");
    if (kobo > left || kobo <= 0) return refuse(res, 400, "Refund amount cannot be greater than the amount left to refund");
    send(res, 200, { status: "success", message: "Transaction refund initiated", data: books.refundData(books.refund(c, kobo)) });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.headers.authorization !== `Bearer ${config.secretKey}`) return refuse(res, 401, "Invalid authorization key");
    const path = url.pathname;
    if (req.method === "GET" && path === "/v3/balances") {
      return send(res, 200, { status: "success", message: "Wallet balances fetched", data: [{ currency: "NGN", available_balance: 0, ledger_balance: 0 }] });
    }
    if (req.method === "POST" && path === "/v3/charges") return charge(req, res, url.searchParams.get("type"));
    if (req.method === "GET" && path === "/v3/transactions/verify_by_reference") {
      const c = books.charges.get(url.searchParams.get("tx_ref") ?? "");
      if (!c) return refuse(res, 400, "No transaction was found for this tx_ref");
      return send(res, 200, { status: "success", message: "Transaction fetched successfully", data: books.transaction(c) });
    }
    const verify = /^\/v3\/transactions\/([^/]+)\/verify$/.exec(path);
    if (req.method === "GET" && verify) {
      const c = books.byId(verify[1] ?? "");
      if (!c) return refuse(res, 400, "No transaction was found for this id");
      return send(res, 200, { status: "success", message: "Transaction fetched successfully", data: books.transaction(c) });
    }
    const refundOf = /^\/v3\/transactions\/([^/]+)\/refund$/.exec(path);
    if (req.method === "POST" && refundOf) return refund(req, res, books.byId(refundOf[1] ?? ""));
    const refundAt = /^\/v3\/refunds\/(\d+)$/.exec(path);
    if (req.method === "GET" && refundAt) {
      const r = books.refunds.get(Number(refundAt[1]));
      if (!r) return refuse(res, 404, "Refund not found");
      return send(res, 200, { status: "success", message: "Refund fetched", data: books.refundData(r) });
    }
    refuse(res, 404, `${req.method ?? ""} ${path} is not a Flutterwave v3 route`);
  }

  /** The customer's side and the faults: what a test asks of the world around Flutterwave. */
  async function control(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.slice("/_double".length);
    if (req.method === "GET" && path.startsWith("/transactions/")) {
      const c = books.charges.get(decodeURIComponent(path.slice("/transactions/".length)));
      return c ? send(res, 200, { ...books.transaction(c), account: c.account ?? null }) : send(res, 404, { error: "no such tx_ref" });
    }
    if (req.method === "GET" && path === "/webhooks") return send(res, 200, books.deliveries);
    const body = await readJson(req);
    if (!body || req.method !== "POST") return send(res, 400, { error: "POST a JSON object" });
    if (path === "/config") {
      for (const key of ["webhookUrl", "secretKey", "secretHash"] as const) if (typeof body[key] === "string") config[key] = body[key];
      books.webhookUrl = config.webhookUrl;
      return send(res, 200, { ok: true });
    }
    if (path === "/faults") {
      if ("api" in body) apiFault = (body.api as ApiFault | null) ?? null;
      if ("webhooks" in body) books.webhookFault = (body.webhooks as WebhookFault | null) ?? null;
      if ("refunds" in body) books.refundOutcome = (body.refunds as RefundOutcome | null) ?? "completed";
      return send(res, 200, { api: apiFault, webhooks: books.webhookFault, refunds: books.refundOutcome });
    }
    if (path === "/webhooks/release") return send(res, 200, { sent: await books.release(body.order === "reverse" ? "reverse" : "held") });
    const c = books.charges.get(typeof body.tx_ref === "string" ? body.tx_ref : "");
    if (!c) return send(res, 404, { error: "no such tx_ref" });
    if (path === "/webhooks/resend") return send(res, 200, { sent: await books.resend(c.txRef) });
    if (path === "/pay") {
      // A USSD debit is the exact amount; a transfer is whatever the customer typed (under- or over-pay).
      const kobo = body.amount === undefined || c.type === "ussd" ? c.amountKobo : amountOf(body.amount);
      if (kobo === null) return send(res, 400, { error: "amount must be naira with at most 2 decimals" });
      const refused = books.pay(c, kobo);
      return refused ? send(res, 409, { error: refused }) : send(res, 200, books.transaction(c));
    }
    if (path === "/decline") {
      const refused = books.decline(c);
      return refused ? send(res, 409, { error: refused }) : send(res, 200, books.transaction(c));
    }
    send(res, 404, { error: `no control route ${path}` });
  }

  /** Applies the API fault, if one is set for this path; true when the request must not be answered normally. */
  function faulted(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const f = apiFault;
    if (!f || (f.path !== undefined && !url.pathname.includes(f.path))) return false;
    if (f.times !== undefined && --f.times <= 0) apiFault = null;
    if (f.mode === "5xx") refuse(res, 503, "Service Unavailable");
    else if (f.mode === "drop") req.socket.destroy();
    // "hang": never answer; the socket stays open until the client gives up or the double closes.
    return true;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://double");
    const handled = url.pathname.startsWith("/_double/") ? control(req, res, url) : faulted(req, res, url) ? Promise.resolve() : api(req, res, url);
    handled.catch((e: unknown) => {
      if (!res.headersSent) refuse(res, 500, e instanceof Error ? e.message : "double failed");
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return { server, books, close };
}
