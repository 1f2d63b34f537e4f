// The live refund suites' shops (providers/live-refund*.test.ts): Owo with its worker and a quick requery schedule, a
// callback receiver, a Paystack and a Flutterwave double each with a merchant connected to it, and the calls every
// refund scenario makes — a paid payment, a refund, verify, the signed refund callbacks, the refunds as Owo and as the
// double hold them. Started before a file's tests and stopped after them.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { call } from "./harness";
import { customerAt, initiateLive, liveShops, type LiveShop } from "./live-merchants";
import { eventually } from "./eventually";
import { ownReference } from "../providers/own-references";
import { paymentWithTimeline } from "../payments/timeline";

export const REFUND_SHOP_KEYS = {
  paystack: { secretKey: "sk_test_refunds_paystack" },
  flutterwave: { secretKey: "FLWSECK_TEST-refunds-X", secretHash: "refunds-secret-hash" },
};

export function liveRefundShops() {
  // The requery schedule at 1/5: the follower's first ask comes 1 s after the provider accepted a refund, well after the
  // Paystack double's webhook (50 ms), so each path is seen on its own. Connected, and the notice URL pasted as the
  // webhook URL, as the merchant does on the provider's dashboard.
  const live = liveShops(REFUND_SHOP_KEYS, {
    name: "refunds shop",
    env: { OWO_WORKER: "on", OWO_WEBHOOK_BACKOFF_SCALE: "0.001", OWO_PROVIDER_TIMEOUT_MS: "2000", OWO_REQUERY_BACKOFF_SCALE: "0.2" },
  });

  const verify = async (m: LiveShop, ref: string) =>
    (await call(live.owo, "GET", `/api/v3/payments/query/${ref}`, { token: m.token })).json.data;

  return {
    live,
    verify,
    /** A live USSD payment of ₦2,500.00 that the double's customer paid in full and Owo settled. */
    async paidLive(m: LiveShop): Promise<string> {
      const p = await initiateLive(live.owo, m, { amount: "2500.00", paymentType: "USSD", bankCode: "058" }, live.receiver);
      const paid = await customerAt(m.double, "pay", ownReference(m.provider, `${p.linkingReference}-1`));
      assert.equal(paid.status, 200, JSON.stringify(paid.json));
      await eventually("the payment settled", async () => (await verify(m, p.paymentReference)).code === "00");
      return p.paymentReference;
    },
    refund: (m: LiveShop, ref: string, body: Record<string, unknown>) =>
      call(live.owo, "POST", `/api/v2/payments/${ref}/refunds`, { token: m.token, body }),
    fault: (m: LiveShop, body: Record<string, unknown>) =>
      fetch(`${m.double.url}/_double/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    /** The payment's refund callbacks, signature checked. */
    async refundCallbacks(m: LiveShop, ref: string, count: number) {
      const hook = new Webhook(m.webhookSecret);
      const got = await eventually(`${count} refund callbacks`, () => {
        const mine = live.receiver.received.filter((r) => r.path === `/cb/${ref}` && r.body.includes('"event":"refund.'));
        return mine.length >= count && mine;
      });
      return got.map((r) => {
        const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));
        return (hook.verify(r.body, headers) as { notificationItems: { notificationRequestItem: { data: Record<string, unknown> } }[] })
          .notificationItems[0]!.notificationRequestItem.data;
      });
    },
    refundsOf: async (m: LiveShop, ref: string) => (await paymentWithTimeline({ merchantId: m.merchantId, mode: "live" }, ref)).refunds,
    /** The refunds the double itself holds for the payment's (first) transaction there. */
    async refundsAtDouble(m: LiveShop, ref: string): Promise<{ id: number; amount?: number; amount_refunded?: number; status: string }[]> {
      const p = (await verify(m, ref)).payments as { linkingReference: string };
      return (
        (await (await fetch(`${m.double.url}/_double/transactions/${ownReference(m.provider, `${p.linkingReference}-1`)}`)).json()) as {
          refunds: [];
        }
      ).refunds;
    },
  };
}
