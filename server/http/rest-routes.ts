// REST v2/v3 routes of API.md. Each one authenticates (done by the door), calls one service, shapes the answer.
import { assertPublicKey, exchangeKeys } from "../auth/access-tokens";
import { initiatePayment } from "../payments/initiate";
import { answerHead } from "../payments/initiate-answer";
import { parseInitiateRequest } from "../payments/initiate-schema";
import { banks } from "../providers/banks";
import { merchantBanks } from "../payments/merchant-banks";
import { openApiJson } from "../openapi/document";
import { sandboxPayment, simulateInput, simulatePayment } from "../payments/simulate";
import { receiveSandboxNotice } from "../payments/sandbox-notices";
import { receiveProviderNotice } from "../payments/notices";
import { SIGNATURE_HEADER } from "../providers/sandbox/notice-signature";
import { cancelPayment } from "../payments/lifecycle";
import { cancelRefund, giveRefundAccount, refundAccountInput } from "../payments/refund-attention";
import { merchantRefund, refundStatus } from "../payments/refund-views";
import { findPayment } from "../payments/lookup";
import { parseRefundBody, requestRefund } from "../payments/refunds";
import { paymentView, verifyAnswer, verifyPaymentNow } from "../payments/verify";
import { createStandardCheckout } from "../payments/standard-checkout";
import { parseStandardCheckout } from "../payments/standard-checkout-schema";
import { exceptionView } from "../reconciliation/exceptions";
import { reconciliationReport, reportQuery } from "../reconciliation/report";
import { resolveException, resolveInput } from "../reconciliation/resolve";
import { importBankStatement } from "../reconciliation/bank-statements";
import { parseStatement } from "../reconciliation/statement-lines";
import { assertSandboxMode, settleSandboxNow } from "../settlements/sandbox";
import { parseSettlementFaults } from "../providers/sandbox/settlement";
import { getSettlement, listSettlements, settlementQuery } from "../settlements/view";
import { balancesOf } from "../books/balances";
import { entriesQuery, listEntries } from "../books/entries";
import { parseQuoteQuery, quoteFees } from "../books/quote";
import { parseBody, parseFields } from "../api-error";
import { successJson } from "./envelope";
import type { RestRoute } from "./rest";

const ok = { code: "00", message: "Successful" };

export const restRoutes: RestRoute[] = [
  {
    method: "POST",
    pattern: /^\/api\/v2\/encrypt\/keys$/,
    access: "ip",
    body: "json",
    run: async ({ json }) => {
      const { token, expiresAt } = await exchangeKeys(json);
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
    method: "GET",
    pattern: /^\/api\/v2\/banks\/merchant\/(?<publicKey>[^/]+)$/,
    access: "token",
    body: "none",
    run: async ({ params, caller, scope }) => {
      assertPublicKey(caller, params.publicKey);
      return { json: successJson({ ...ok, merchantBanks: await merchantBanks(scope) }) };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/initiates$/,
    access: "token",
    body: "json",
    run: async ({ json, caller }) => {
      if (typeof json === "object" && json !== null && !Array.isArray(json))
        assertPublicKey(caller, (json as { publicKey?: unknown }).publicKey);
      const request = parseInitiateRequest(json, { publicKey: true });
      const result = await initiatePayment(request, { merchantId: caller.merchantId, mode: caller.mode, source: "rest" });
      const head = answerHead(result.paymentType);
      // Spliced, not re-serialised: a replay answers the very bytes of the first answer.
      return {
        json: `{"status":"SUCCESS","data":{"code":${JSON.stringify(head.code)},"message":${JSON.stringify(head.message)},"payments":${result.paymentsJson}}}`,
      };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments$/,
    access: "token",
    body: "json",
    run: async ({ json, caller }) => {
      if (typeof json === "object" && json !== null && !Array.isArray(json))
        assertPublicKey(caller, (json as { publicKey?: unknown }).publicKey);
      const result = await createStandardCheckout(parseStandardCheckout(json, { publicKey: true }), {
        merchantId: caller.merchantId,
        mode: caller.mode,
        source: "rest",
      });
      // Spliced, not re-serialised: a replay answers the very bytes of the first answer.
      return { json: `{"status":"SUCCESS","data":{"code":"00","message":"Successful","payments":${result.paymentsJson}}}` };
    },
  },
  {
    method: "GET",
    pattern: /^\/api\/v[23]\/payments\/query\/(?<reference>[^/]+)$/,
    access: "token",
    body: "none",
    run: async ({ params, scope }) => ({
      json: successJson(await verifyPaymentNow(scope, params.reference ?? "")),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/(?<reference>[^/]+)\/cancel$/,
    access: "token",
    body: "none",
    run: async ({ params, scope }) => ({
      json: successJson(verifyAnswer(await cancelPayment(scope, params.reference ?? ""))),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/(?<reference>[^/]+)\/refunds$/,
    access: "token",
    body: "json",
    run: async ({ params, scope, json }) => {
      // The payment the path names answers before the body: another merchant's reference is 404 whatever is sent.
      await findPayment(scope, params.reference ?? "");
      return { json: successJson(await requestRefund(scope, params.reference ?? "", parseRefundBody(json))) };
    },
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/payments\/(?<reference>[^/]+)\/refunds\/(?<refundReference>[^/]+)$/,
    access: "token",
    body: "none",
    run: async ({ params, scope }) => ({
      json: successJson(await refundStatus(scope, params.reference ?? "", params.refundReference ?? "")),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/(?<reference>[^/]+)\/refunds\/(?<refundReference>[^/]+)\/account$/,
    access: "token",
    body: "json",
    run: async ({ params, scope, json }) => {
      // The refund the path names answers before the body, as for a refund.
      await merchantRefund(scope, params.reference ?? "", params.refundReference ?? "");
      const input = parseBody(refundAccountInput, json);
      return { json: successJson(await giveRefundAccount(scope, params.reference ?? "", params.refundReference ?? "", input)) };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/payments\/(?<reference>[^/]+)\/refunds\/(?<refundReference>[^/]+)\/cancel$/,
    access: "token",
    body: "none",
    run: async ({ params, scope }) => ({
      json: successJson(await cancelRefund(scope, params.reference ?? "", params.refundReference ?? "")),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/sandbox\/payments\/(?<reference>[^/]+)\/simulate$/,
    access: "token",
    body: "json",
    run: async ({ params, scope, json }) => {
      // Live mode (S3) and the payment the path names (404) answer before the body, as for a refund.
      await sandboxPayment(scope, params.reference ?? "");
      const input = parseBody(simulateInput.strict(), json);
      const { code, message, payments } = await simulatePayment(scope, params.reference ?? "", input);
      // Verify's own code and message: a part payment is S20 here too, never "00".
      return { json: successJson({ code, message, payments }) };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/sandbox\/settlements$/,
    access: "token",
    body: "json",
    run: async ({ scope, json }) => {
      assertSandboxMode(scope); // before the body, as ever
      return { json: successJson({ ...ok, settlement: await settleSandboxNow(scope, parseSettlementFaults(json)) }) };
    },
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/reconciliation$/,
    access: "token",
    body: "none",
    run: async ({ scope, query }) => ({
      json: successJson({ ...ok, report: await reconciliationReport(scope, parseFields(reportQuery, query)) }),
    }),
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/reconciliation\/exceptions\/(?<exceptionId>[^/]+)\/resolve$/,
    access: "token",
    body: "json",
    run: async ({ scope, params, json }) => {
      const resolved = await resolveException(scope, params.exceptionId ?? "", parseFields(resolveInput, json), null);
      return { json: successJson({ ...ok, exception: exceptionView(resolved) }) };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/bank-statements$/,
    access: "token",
    body: "json",
    run: async ({ scope, json }) => ({
      json: successJson({ ...ok, lines: await importBankStatement(scope, parseStatement(json)) }),
    }),
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/settlements$/,
    access: "token",
    body: "none",
    run: async ({ scope, query }) => ({
      json: successJson({ ...ok, ...(await listSettlements(scope, parseFields(settlementQuery, query))) }),
    }),
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/settlements\/(?<settlementId>[^/]+)$/,
    access: "token",
    body: "none",
    run: async ({ scope, params }) => ({
      json: successJson({ ...ok, settlement: await getSettlement(scope, params.settlementId ?? "") }),
    }),
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/fees\/quote$/,
    access: "token",
    body: "none",
    run: async ({ scope, query }) => ({ json: successJson({ ...ok, ...(await quoteFees(scope, parseQuoteQuery(query))) }) }),
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/balances$/,
    access: "token",
    body: "none",
    run: async ({ scope }) => ({ json: successJson({ ...ok, ...(await balancesOf(scope)) }) }),
  },
  {
    method: "GET",
    pattern: /^\/api\/v2\/ledger\/entries$/,
    access: "token",
    body: "none",
    run: async ({ scope, query }) => ({ json: successJson({ ...ok, ...(await listEntries(scope, parseFields(entriesQuery, query))) }) }),
  },
  { method: "GET", pattern: /^\/api\/v2\/openapi\.json$/, access: "open", body: "none", run: () => ({ json: openApiJson() }) },
  {
    method: "POST",
    pattern: /^\/api\/v2\/providers\/sandbox\/notices$/,
    access: "open",
    body: "raw",
    run: async ({ req, raw }) => {
      const header = req.headers[SIGNATURE_HEADER];
      const { message, payment } = await receiveSandboxNotice(Array.isArray(header) ? header[0] : header, raw);
      return { json: successJson({ code: "00", message, ...(payment ? { payments: paymentView(payment) } : {}) }) };
    },
  },
  {
    method: "POST",
    pattern: /^\/api\/v2\/providers\/(?<providerId>prv_[0-9a-z]{20})\/notices$/,
    access: "notices",
    body: "raw",
    run: async ({ req, raw, params }) => {
      const answer = await receiveProviderNotice(params.providerId ?? "", raw, req.headers);
      // A provider that asks for its own acknowledgement (SeerBit) gets that bare object, not Owo's envelope.
      return { json: answer.ack ? JSON.stringify(answer.ack) : successJson({ code: "00", message: answer.message }) };
    },
  },
];
