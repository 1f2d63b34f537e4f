// A connector test's provider: its double as its own process, started before the file's tests and stopped after them,
// its webhooks sent to a receiver in the test's own process that keeps each raw body and its headers as Owo's notice
// door would get them, and the account Owo would hold for it. A test reads and moves the double through its control
// routes (control(), paths under /_double); each test starts with no fault armed and no webhook received.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach } from "node:test";
import { bankByCode } from "../providers/banks";
import type { Connector, IssueRequest, NoticeReading, ProviderAccount } from "../providers/connector";
import { eventually } from "./eventually";
import { doubleFlags, spawnDouble, type DoubleProcess } from "./processes";

export type ReceivedWebhook = { raw: Buffer; headers: IncomingHttpHeaders };
export type ControlAnswer = { status: number; json: Record<string, unknown> };

export type ProviderDouble = {
  double: DoubleProcess;
  account: ProviderAccount;
  /** The webhooks the receiver got in this test, oldest first; a test may empty it. */
  received: ReceivedWebhook[];
  control(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<ControlAnswer>;
  /** The `n` webhooks received after the first `from`, and the connector's reading of each, once they came and the
   * double's outbox has nothing in flight (GET /_double/webhooks waits for that): a webhook the double sends later by
   * its own timer is waited for, then the count must be exact. */
  webhooksAfter(from: number, n: number): Promise<{ raw: ReceivedWebhook[]; readings: NoticeReading[] }>;
};

/** The double of `connector`'s provider for `credentials` (its flags in kebab case, and `flags`), and the account
 * `accountId` at it. */
export function providerDouble(
  connector: Connector,
  credentials: Record<string, string>,
  opts: { accountId: string; flags?: Record<string, string> },
): ProviderDouble {
  let receiver: Server;
  const received: ReceivedWebhook[] = [];
  const p = { received } as ProviderDouble; // double and account are filled before the first test
  p.control = async (method, path, body) => {
    const res = await fetch(`${p.double.url}/_double${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  p.webhooksAfter = async (from, n) => {
    await eventually(`${n} webhooks`, async () => (await p.control("GET", "/webhooks"), received.length >= from + n));
    const raw = received.slice(from);
    assert.equal(raw.length, n, `expected ${n} webhooks, got ${raw.map((r) => r.raw.toString().slice(0, 40)).join(" | ")}`);
    return { raw, readings: raw.map((r) => connector.readNotice(p.account, r.raw, r.headers)) };
  };
  before(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ raw: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    p.double = await spawnDouble(connector.name, doubleFlags(credentials, opts.flags));
    p.account = { id: opts.accountId, provider: connector.name, baseUrl: p.double.url, credentials };
    await p.control("PUT", "/webhook-url", { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notices` });
  });
  // Each test starts with no fault armed and no webhook received.
  beforeEach(async () => {
    await p.control("DELETE", "/faults");
    received.length = 0;
  });
  after(async () => {
    await p.double?.stop();
    await new Promise((r) => receiver?.close(r));
  });
  return p;
}

/** What Owo asks a provider to issue but the reference (the registry gives that): `amountKobo` by `channel` (USSD from
 * the bank of `opts.bank`, GTBank's 058 unless said), living `opts.lifetimeMs` (30 minutes unless said). */
export function issueOrder(
  channel: "USSD" | "TRANSFER",
  amountKobo = 150_000,
  opts: { bank?: string; lifetimeMs?: number } = {},
): Omit<IssueRequest, "reference"> {
  return {
    channel,
    amountKobo,
    currency: "NGN",
    ...(channel === "USSD" ? { bank: bankByCode(opts.bank ?? "058") } : {}),
    customer: { fullName: "Ngozi Okafor", email: "ngozi@example.com", mobileNumber: "08031234567" },
    merchantName: "Ada Stores",
    expiresAt: Date.now() + (opts.lifetimeMs ?? 30 * 60_000),
  };
}

let issued = 0;

/** issueOrder's request under a reference no other request of this process has. */
export function issueRequest(channel: "USSD" | "TRANSFER", amountKobo = 150_000, lifetimeMs?: number): IssueRequest {
  return { ...issueOrder(channel, amountKobo, { lifetimeMs }), reference: `OWO-${process.pid}-${++issued}` };
}
