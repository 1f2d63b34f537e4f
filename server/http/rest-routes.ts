// REST v2/v3 routes of API.md. Each one authenticates (done by the door), calls one service, shapes the answer.
import { assertPublicKey, exchangeKeys } from "../auth/access-tokens";
import { answerHead, initiatePayment } from "../payments/initiate";
import { parseInitiateRequest } from "../payments/initiate-schema";
import { banks } from "../providers/banks";
import { successJson } from "./envelope";
import type { RestRoute } from "./rest";

const ok = { code: "00", message: "Successful" };

export const restRoutes: RestRoute[] = [
  {
    method: "POST",
    pattern: /^\/api\/v2\/encrypt\/keys$/,
    access: "ip",
    body: "json",
    run: ({ json }) => {
      const { token, expiresAt } = exchangeKeys(json);
      return { json: successJson({ ...ok, EncryptedSecKey: { encryptedKey: token, expiresAt: new Date(expiresAt).toISOString() } }) };
    },
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/banks$/,
    access: "open",
    body: "none",
    run: () => ({
      json: successJson({
        ...ok,
        banks: banks.map((b) => ({ bankCode: b.bankCode, bankName: b.bankName, ussdCode: b.ussdCode, supportsUssd: b.ussdCode !== null })),
      }),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/initiates$/,
    access: "token",
    body: "json",
    run: ({ json, caller }) => {
      if (typeof json === "object" && json !== null && !Array.isArray(json)) assertPublicKey(caller, (json as { publicKey?: unknown }).publicKey);
      const request = parseInitiateRequest(json, { publicKey: true });
      const result = initiatePayment(request, { merchantId: caller.merchantId, mode: caller.mode, source: "rest" });
      const head = answerHead(result.paymentType);
      // Spliced, not re-serialised: a replay answers the very bytes of the first answer.
      return { json: `{"status":"SUCCESS","data":{"code":${JSON.stringify(head.code)},"message":${JSON.stringify(head.message)},"payments":${result.paymentsJson}}}` };
    },
  },
];
