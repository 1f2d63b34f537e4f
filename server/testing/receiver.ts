// Fixtures for the callback tests: real HTTP receivers on this machine, and payments that produce events.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { applyBankNotice } from "../payments/lifecycle";
import { initiatePayment } from "../payments/initiate";
import { parseInitiateRequest } from "../payments/initiate-schema";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
/** A status to answer with, optionally after a pause or with a Location; "hang" never answers. */
export type Answer = number | { status: number; afterMs?: number; location?: string } | "hang";

export type Receiver = {
  port: number;
  url: (path?: string) => string;
  received: Received[];
  /** TCP connections accepted, requests or not. */
  connections: () => number;
  /** Requests being answered right now. */
  inFlight: () => number;
  maxInFlight: () => number;
  stop: () => Promise<void>;
};

export async function startReceiver(answer: (r: Received, index: number) => Answer = () => 200, host = "127.0.0.1"): Promise<Receiver> {
  const received: Received[] = [];
  let connections = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body, at: Date.now() };
      received.push(r);
      const a = answer(r, received.length - 1);
      const reply = (status: number, location?: string) => {
        inFlight--;
        res.writeHead(status, { "content-type": "text/plain", ...(location ? { location } : {}) }).end(`answered ${status}`);
      };
      if (a === "hang") return;
      if (typeof a === "number") return reply(a);
      setTimeout(() => reply(a.status, a.location), a.afterMs ?? 0);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return {
    port,
    url: (path = "/callback") => `http://${shownHost}:${port}${path}`,
    received,
    connections: () => connections,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let references = 0;

/** A TRANSFER payment of ₦1,500.00 whose callbacks go to `callbackUrl`. */
export async function openTransfer(merchantId: string, callbackUrl: string): Promise<{ paymentReference: string; accountNumber: string }> {
  const paymentReference = `wh-${process.pid}-${Date.now().toString(36)}-${++references}`;
  const request = parseInitiateRequest(
    {
      amount: "1500",
      fullName: "Ada Obi",
      mobileNumber: "08012345678",
      email: "ada@example.com",
      currency: "NGN",
      country: "NG",
      paymentReference,
      callbackUrl,
      redirectUrl: "https://shop.example.ng/thanks",
      paymentType: "TRANSFER",
    },
    { publicKey: false },
  );
  const answer = JSON.parse((await initiatePayment(request, { merchantId, mode: "test", source: "rest" })).paymentsJson) as {
    accountNumber: string;
  };
  return { paymentReference, accountNumber: answer.accountNumber };
}

/** The sandbox bank credits the account: the payment's next event (successful, or refund_due once closed). */
export async function credit(accountNumber: string, amountKobo = 1500_00): Promise<void> {
  await applyBankNotice({
    provider: "sandbox",
    transactionId: `txn_${randomBytes(8).toString("hex")}`,
    kind: "credit",
    amountKobo,
    target: { accountNumber },
  });
}

type Found<T> = T | undefined | false;

/** Polls `check` until it returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Found<T> | Promise<Found<T>>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
