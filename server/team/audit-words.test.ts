// Every audited action reads as a sentence a person understands: no procedure names, no JSON, the input's facts in words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { appRouter } from "../trpc/root";
import { auditSentence } from "./audit-words";

const CORE_ACTIONS = [
  "team.acceptInvite",
  "business.setLogo",
  "reconciliation.resolve",
  "account.verifyEmail",
  "account.resetPassword",
  "account.signInNewDevice",
  "account.enableTwoFactor",
  "account.disableTwoFactor",
  "account.renewRecoveryCodes",
  "account.useRecoveryCode",
  "account.endSession",
  "account.endOtherSessions",
];

test("every mutation a person can make, and every action the core audits, has its own sentence", () => {
  // tRPC types _def.procedures as its nested router shape; at run time it is the flat map of paths to procedures.
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
  const mutations = Object.entries(procedures)
    .filter(([path, p]) => p._def.type === "mutation" && !path.startsWith("account.") && !path.startsWith("checkout."))
    .map(([path]) => path);
  assert.ok(mutations.includes("payments.refund") && mutations.includes("providers.connect"));
  for (const action of [...mutations, ...CORE_ACTIONS]) {
    const sentence = auditSentence(action, null, {});
    assert.doesNotMatch(sentence, /^Made a change/, `${action} has words of its own`);
    assert.doesNotMatch(sentence, /\b[a-z]+\.[a-z][A-Za-z]+\b|[{}"]/, `${action}: "${sentence}" names no procedure and shows no JSON`);
    assert.match(sentence, /^[A-Z].*\.$/, `${action}: "${sentence}" is a sentence`);
  }
});

test("the input's facts are told in words", () => {
  assert.equal(
    auditSentence("payments.refund", "ord-1", { paymentReference: "ord-1", amount: "1000", reason: "Out of stock" }),
    "Refunded ₦1,000.00 of payment ord-1, because: Out of stock.",
  );
  assert.equal(
    auditSentence("providers.connect", null, { provider: "paystack", credentials: "[redacted]" }),
    "Connected Paystack for live payments.",
  );
  assert.equal(
    auditSentence("initiatePayment", "ord-2", {
      paymentType: "TRANSFER",
      amount: "4200",
      fullName: "Tunde Bakare",
      paymentReference: "ord-2",
    }),
    "Created a bank transfer payment of ₦4,200.00 for Tunde Bakare (ord-2).",
  );
  assert.equal(auditSentence("team.requireTwoFactor", null, { required: true }), "Required two-factor sign-in for the team.");
  assert.equal(auditSentence("payments.somethingNew", null, { x: { y: 1 } }), "Made a change to payments.");
});
