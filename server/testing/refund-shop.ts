// A sandbox merchant for the refund suites (payments/refunds*.test.ts): Owo with its delivery worker, a callback
// receiver, and the few calls every refund scenario makes — pay, refund, verify, read the signed callbacks — started
// before a file's tests and stopped after them.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { Webhook } from "standardwebhooks";
import { parseAmount } from "../money";
import { eventually } from "./eventually";
import { call } from "./harness";
import { startInitiating, type InitiatingMerchant } from "./initiation";
import { startReceiver, type Receiver } from "./receiver";

export type CallbackData = Record<string, unknown> & { refund?: Record<string, unknown> };

/** The dashboard's view at any moment: the payment's amountRefunded is the sum of the refunds it lists as PROCESSED. */
export function agreeing<V extends { payments: { amountRefunded: string }; refunds: { status: string; amount: string }[] }>(v: V): V {
  const kobo = (naira: string) => parseAmount(naira) ?? NaN;
  const processed = v.refunds.filter((r) => r.status === "PROCESSED").reduce((sum, r) => sum + kobo(r.amount), 0);
  assert.equal(
    kobo(v.payments.amountRefunded),
    processed,
    `amountRefunded ${v.payments.amountRefunded} beside refunds ${JSON.stringify(v.refunds.map((r) => [r.status, r.amount]))}`,
  );
  return v;
}

export type RefundShop = {
  /** The merchant and its Owo (set once the file's `before` ran). */
  readonly s: InitiatingMerchant;
  readonly receiver: Receiver;
  /** Initiates `body` and plays the customer (`simulate`; `{}` leaves it unpaid); the payment's reference. */
  paid(body: Record<string, unknown>, simulate?: Record<string, unknown>): Promise<string>;
  /** The body with its callbacks sent to the receiver, at a path naming the payment. */
  heard(body: Record<string, unknown>): Record<string, unknown>;
  refund(ref: string, body: unknown, token?: string): ReturnType<typeof call>;
  verify(ref: string): Promise<Record<string, unknown> & { payments: Record<string, unknown> }>;
  /** The payment's callbacks as the receiver got them, signature checked, in sequence order. */
  callbacksOf(ref: string, count: number): Promise<CallbackData[]>;
};

/** Call at a test file's top level: its Owo and receiver run for the file's tests. */
export function refundShop(): RefundShop {
  let s: InitiatingMerchant | undefined;
  let receiver: Receiver | undefined;
  before(async () => {
    receiver = await startReceiver();
    s = await startInitiating({ OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.0005" });
  });
  after(async () => {
    await s?.owo.stop();
    await receiver?.stop();
  });
  const started = () => s ?? assert.fail("refundShop: used before its before() ran");
  const listening = () => receiver ?? assert.fail("refundShop: used before its before() ran");
  const shop: RefundShop = {
    get s() {
      return started();
    },
    get receiver() {
      return listening();
    },
    async paid(body, simulate = { outcome: "pay" }) {
      const m = started();
      const ref = body.paymentReference as string;
      assert.equal((await call(m.owo, "POST", "/api/v2/payments/initiates", { token: m.token, body })).status, 200);
      if (Object.keys(simulate).length) {
        const sim = await call(m.owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token: m.token, body: simulate });
        assert.equal(sim.status, 200, sim.text);
      }
      return ref;
    },
    heard: (body) => ({ ...body, callbackUrl: listening().url(`/cb/${String(body.paymentReference)}`) }),
    refund: (ref, body, token) =>
      call(started().owo, "POST", `/api/v2/payments/${encodeURIComponent(ref)}/refunds`, { token: token ?? started().token, body }),
    verify: async (ref) => (await call(started().owo, "GET", `/api/v3/payments/query/${ref}`, { token: started().token })).json.data,
    async callbacksOf(ref, count) {
      const hook = new Webhook(started().merchant.webhookSecret);
      const got = await eventually(`${count} callbacks of ${ref}`, () => {
        const mine = listening().received.filter((r) => r.path === `/cb/${ref}`);
        return mine.length >= count && mine;
      });
      return got
        .map((r) => {
          const headers = {
            "webhook-id": String(r.headers["webhook-id"]),
            "webhook-timestamp": String(r.headers["webhook-timestamp"]),
            "webhook-signature": String(r.headers["webhook-signature"]),
          };
          const signed = hook.verify(r.body, headers) as { notificationItems: { notificationRequestItem: { data: CallbackData } }[] };
          return signed.notificationItems[0]!.notificationRequestItem.data;
        })
        .sort((a, b) => Number(a.sequence) - Number(b.sequence));
    },
  };
  return shop;
}
