// Bank notices: signed or refused, and applied exactly once however often they arrive.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo } from "../../testing/harness";
import { settings } from "../../settings";
import { SANDBOX_NOTICE_PATH } from "./bank";
import { SIGNATURE_HEADER, signNotice } from "./notice-signature";
import { readSandboxNotice, recordAfter } from "./notices";
import { clock } from "../../clock";

let owo: Owo;
let token: string;
let publicKey: string;

before(async () => {
  owo = await startOwo();
  const m = await createTestMerchant();
  publicKey = m.publicKey;
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

async function transfer(ref: string, amount = "1000.00"): Promise<string> {
  const res = await call(owo, "POST", "/api/v2/payments/initiates", {
    token,
    body: {
      publicKey,
      amount,
      fullName: "Chidi Okeke",
      mobileNumber: "08031234567",
      email: "chidi@example.com",
      currency: "NGN",
      country: "NG",
      paymentReference: ref,
      callbackUrl: "https://shop.example.ng/cb",
      redirectUrl: "https://shop.example.ng/done",
      paymentType: "TRANSFER",
    },
  });
  assert.equal(res.status, 200, res.text);
  return res.json.data.payments.accountNumber as string;
}

function post(body: string, signature: string | null) {
  return call(owo, "POST", SANDBOX_NOTICE_PATH, { raw: body, headers: signature === null ? {} : { [SIGNATURE_HEADER]: signature } });
}

const verify = async (ref: string) => (await call(owo, "GET", `/api/v3/payments/query/${ref}`, { token })).json.data.payments;

test("a notice sent twice credits once", async () => {
  const accountNumber = await transfer("dup-twice", "1000.00");
  const body = JSON.stringify({ transactionId: "sbx_twice_0001", type: "credit", amount: "400.00", accountNumber, senderName: "Chidi" });
  const first = await post(body, signNotice(body, settings().sandboxBankSecret));
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.data.message, "Notice applied");
  const second = await post(body, signNotice(body, settings().sandboxBankSecret));
  assert.equal(second.status, 200);
  assert.equal(second.json.data.message, "Duplicate notice; applied before");
  const p = await verify("dup-twice");
  assert.equal(p.amountPaid, "400.00");
  assert.equal(p.status, "PARTIALLY_PAID");
});

test("the same notice 20 times at once credits once", async () => {
  const accountNumber = await transfer("dup-twenty", "1000.00");
  const body = JSON.stringify({ transactionId: "sbx_twenty_0001", type: "credit", amount: "1000.00", accountNumber });
  const answers = await Promise.all(Array.from({ length: 20 }, () => post(body, signNotice(body, settings().sandboxBankSecret))));
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
  assert.equal(answers.filter((a) => a.json.data.message === "Notice applied").length, 1);
  const p = await verify("dup-twenty");
  assert.equal(p.amountPaid, "1000.00");
  assert.equal(p.amountToRefund, "0.00");
  assert.equal(p.status, "SUCCESSFUL");
});

test("a missing, wrong, stale or tampered signature is 401 and changes nothing", async () => {
  const accountNumber = await transfer("bad-sig");
  const body = JSON.stringify({ transactionId: "sbx_badsig_0001", type: "credit", amount: "1000.00", accountNumber });
  const secret = settings().sandboxBankSecret;
  const tampered = body.replace("1000.00", "9000.00");
  for (const [raw, sig] of [
    [body, null],
    [body, signNotice(body, "not-the-bank-secret-at-all")],
    [body, signNotice(body, secret, Math.floor(Date.now() / 1000) - 3600)],
    [tampered, signNotice(body, secret)],
    [body, "t=abc,v1=zz"],
  ] as const) {
    const res = await post(raw, sig);
    assert.equal(res.status, 401, res.text);
    assert.equal(res.json.data.code, "S1");
  }
  const p = await verify("bad-sig");
  assert.equal(p.amountPaid, "0.00");
  assert.equal(p.status, "PENDING");
});

test("a well-signed notice for no issued account is 404; a malformed one is 400 S5", async () => {
  const secret = settings().sandboxBankSecret;
  const unknown = JSON.stringify({ transactionId: "sbx_unknown_01", type: "credit", amount: "10.00", accountNumber: "0000000000" });
  assert.equal((await post(unknown, signNotice(unknown, secret))).status, 404);
  const malformed = JSON.stringify({ transactionId: "x", type: "gift", amount: "ten" });
  const res = await post(malformed, signNotice(malformed, secret));
  assert.equal(res.status, 400);
  assert.deepEqual(res.json.data.errors.map((e: { field: string }) => e.field).sort(), ["amount", "transactionId", "type"]);
});

test("the connector's reading of a credit carries the bank's fee on it, by its published schedule (API.md Fees)", () => {
  const read = (type: string, amount: string) => {
    const body = JSON.stringify({ transactionId: `fee_${type}_${amount.replace(".", "_")}`, type, amount, accountNumber: "0123456789" });
    return readSandboxNotice(signNotice(body, settings().sandboxBankSecret), Buffer.from(body), clock.now());
  };
  // 1.5% + ₦100 (waived under ₦2,500), capped at ₦2,000.
  assert.deepEqual(
    [read("credit", "1000.00"), read("credit", "5000.00"), read("credit", "500000.00")].map((r) => "feeKobo" in r && r.feeKobo),
    [1_500, 17_500, 200_000],
  );
  assert.equal((read("decline", "0.00") as { feeKobo?: number }).feeKobo, 0);
});

test("the bank's notice of a second credit reads as its record of the payment: all it holds, every credit's fee, at arrival", () => {
  const notice = { provider: "sandbox", transactionId: "sbx_second_01", target: { accountNumber: "0123456789" } };
  const held = { receivedKobo: 400_00, feeKobo: 600, currency: "NGN" };
  // ₦400.00 held with its ₦6.00 fee, then ₦600.00 more: 1.5% is ₦9.00, each credit charged on its own (API.md Fees).
  assert.deepEqual(recordAfter({ ...notice, kind: "credit", amountKobo: 600_00, feeKobo: 900 }, held, 1_000), {
    state: "paid",
    amountKobo: 1000_00,
    currency: "NGN",
    paidAt: 1_000,
    feeKobo: 1_500,
  });
  assert.deepEqual(recordAfter({ ...notice, kind: "decline", amountKobo: 0 }, { ...held, receivedKobo: 0 }, 2_000), {
    state: "failed",
    amountKobo: 0,
    currency: "NGN",
    paidAt: 2_000,
  });
});
