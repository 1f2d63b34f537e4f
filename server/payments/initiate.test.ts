// Initiation over real HTTP: the published samples, both answers exactly as API.md shows, dial codes and accounts.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import data from "../providers/banks.json";
import { isValidNuban } from "../providers/nuban";
import { call, createTestMerchant, startOwo, tokenFor, type Answer, type Owo, type TestMerchant } from "../testing/harness";
import { exampleText, TRANSFER_PAYMENT_KEYS, transferBody, USSD_PAYMENT_KEYS, ussdBody, type Body } from "../testing/initiation";

// Unusual lifetimes, so the test sees that expiresAt follows the settings and not a constant.
const USSD_TTL = 420;
const TRANSFER_TTL = 2400;

let owo: Owo;
let m: TestMerchant;
let token: string;
before(async () => {
  owo = await startOwo({ OWO_USSD_TTL_SECONDS: String(USSD_TTL), OWO_TRANSFER_TTL_SECONDS: String(TRANSFER_TTL) });
  m = await createTestMerchant("Demo Store");
  token = await tokenFor(owo, m);
});
after(() => owo.stop());

const DIAL_CODE = /^\*\d+(\*\d+)*#$/;

/** Posts and returns the answer together with the moments just before and after, to bound expiresAt. */
async function initiate(body: Body | string): Promise<Answer & { sent: number; answered: number }> {
  const sent = Date.now();
  const res = await call(owo, "POST", "/api/v2/payments/initiates", typeof body === "string" ? { token, raw: body } : { token, body });
  return { ...res, sent, answered: Date.now() };
}

function assertSuccess(res: Answer, code: string | null, message: string | null, keys: string[]) {
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  assert.deepEqual(Object.keys(res.json), ["status", "data"]);
  assert.equal(res.json.status, "SUCCESS");
  assert.deepEqual(Object.keys(res.json.data), ["code", "message", "payments"]);
  assert.equal(res.json.data.code, code);
  assert.equal(res.json.data.message, message);
  const payments = res.json.data.payments;
  assert.deepEqual(Object.keys(payments), keys, "the payments object has exactly API.md's fields, in its order");
  for (const key of keys) assert.equal(typeof payments[key], "string", `${key} is a string`);
  assert.match(payments.linkingReference, /^OWO\d{17}$/);
  assert.equal(payments.checkoutUrl, `${owo.url}/checkout/${payments.linkingReference}`);
  return payments;
}

function assertExpiry(res: { json: Answer["json"]; sent: number; answered: number }, ttlSeconds: number) {
  const expiresAt: string = res.json.data.payments.expiresAt;
  assert.equal(new Date(expiresAt).toISOString(), expiresAt, "ISO 8601 UTC as JavaScript writes it");
  const at = Date.parse(expiresAt);
  assert.ok(at >= res.sent + ttlSeconds * 1000 && at <= res.answered + ttlSeconds * 1000, `expires ${ttlSeconds}s after initiation`);
}

const fill = () => ({
  publicKey: m.publicKey,
  callbackUrl: "https://shop.example.ng/owo/callback",
  redirectUrl: "https://shop.example.ng/thanks",
});

test("the published USSD sample is accepted unchanged and answered exactly as API.md shows", async () => {
  const res = await initiate(exampleText("initiate-ussd", fill()));
  const p = assertSuccess(res, null, null, USSD_PAYMENT_KEYS);
  assert.equal(p.paymentReference, "dsffererer");
  assert.match(p.providerreference, /^\d{8}$/);
  assert.equal(p.ussdDailCode, `*901*000*${p.providerreference}#`, "bank 044 is Access Bank: *901#");
  assert.match(p.ussdDailCode, DIAL_CODE);
  assert.equal(p.amount, "100.00");
  assertExpiry(res, USSD_TTL);
});

test("the published TRANSFER sample is accepted unchanged and answered exactly as API.md shows", async () => {
  const res = await initiate(exampleText("initiate-transfer", fill()));
  const p = assertSuccess(res, "00", "ACCOUNT OPENED SUCCESSFULLY", TRANSFER_PAYMENT_KEYS);
  assert.equal(p.paymentReference, "dsfr55266tyt5554y166");
  assert.equal(p.walletName, "OWO(Demo Store)");
  assert.equal(p.bankName, "Owo Sandbox Bank");
  assert.match(p.accountNumber, /^\d{10}$/);
  assert.equal(p.wallet, p.accountNumber);
  assert.ok(isValidNuban("000", p.accountNumber), `${p.accountNumber} has a valid NUBAN check digit for bank 000`);
  assert.equal(p.amount, "100.00");
  assertExpiry(res, TRANSFER_TTL);
});

test("amounts are answered with two decimals and paymentReference is echoed unchanged", async () => {
  for (const [sent, answered] of [
    ["1500.5", "1500.50"],
    ["250000", "250000.00"],
    ["0100.01", "100.01"],
    ["1000000.00", "1000000.00"],
  ] as const) {
    const body = ussdBody(m.publicKey, { amount: sent, paymentReference: `Ord.${sent}_X-y` });
    const p = assertSuccess(await initiate(body), null, null, USSD_PAYMENT_KEYS);
    assert.equal(p.amount, answered);
    assert.equal(p.paymentReference, body.paymentReference);
  }
  const p = assertSuccess(
    await initiate(transferBody(m.publicKey, { amount: "9999999.99" })),
    "00",
    "ACCOUNT OPENED SUCCESSFULLY",
    TRANSFER_PAYMENT_KEYS,
  );
  assert.equal(p.amount, "9999999.99");
});

test("the walletName carries the merchant's name as it is", async () => {
  const other = await createTestMerchant("Mama Put & Sons (Ikeja)");
  const res = await call(owo, "POST", "/api/v2/payments/initiates", {
    token: await tokenFor(owo, other),
    body: transferBody(other.publicKey),
  });
  assert.equal(res.json.data.payments.walletName, "OWO(Mama Put & Sons (Ikeja))");
});

test("every USSD bank's dial code uses that bank's own short code", async () => {
  const ussdBanks = data.banks.filter((b) => b.ussdCode !== null);
  assert.ok(ussdBanks.length >= 5);
  const answers = await Promise.all(ussdBanks.map((bank) => initiate(ussdBody(m.publicKey, { bankCode: bank.bankCode }))));
  answers.forEach((res, i) => {
    const bank = ussdBanks[i];
    assert.ok(bank?.ussdCode);
    const p = assertSuccess(res, null, null, USSD_PAYMENT_KEYS);
    assert.match(p.ussdDailCode, DIAL_CODE);
    assert.equal(p.ussdDailCode, `${bank.ussdCode.slice(0, -1)}*000*${p.providerreference}#`, bank.bankName);
    assert.match(p.providerreference, /^\d{8}$/);
  });
  const byCode = Object.fromEntries(answers.map((res, i) => [ussdBanks[i]?.bankCode, res.json.data.payments.ussdDailCode as string]));
  assert.match(byCode["058"] ?? "", /^\*737\*000\*\d{8}#$/, "GTBank *737#");
  assert.match(byCode["057"] ?? "", /^\*966\*000\*\d{8}#$/, "Zenith *966#");
  assert.match(byCode["011"] ?? "", /^\*894\*000\*\d{8}#$/, "First Bank *894#");
  assert.match(byCode["033"] ?? "", /^\*919\*000\*\d{8}#$/, "UBA *919#");
  assert.match(byCode["215"] ?? "", /^\*7799\*000\*\d{8}#$/, "Unity *7799#");
});

/** Runs `count` jobs over HTTP with at most `width` in flight. */
async function inParallel<T>(count: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}

test("1,000 opened accounts are NUBAN-valid at bank 000 and all different; linking references never repeat", async () => {
  const answers = await inParallel(1000, 16, async () => {
    const res = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: transferBody(m.publicKey) });
    assert.equal(res.status, 200, res.text);
    return res.json.data.payments as { accountNumber: string; wallet: string; linkingReference: string };
  });
  const accounts = new Set(answers.map((p) => p.accountNumber));
  assert.equal(accounts.size, 1000, "no account number is issued twice");
  for (const p of answers) {
    assert.ok(isValidNuban("000", p.accountNumber), p.accountNumber);
    assert.equal(p.wallet, p.accountNumber);
  }
  assert.equal(new Set(answers.map((p) => p.linkingReference)).size, 1000);
});

test("USSD provider references are 8 digits and never reused for a bank", async () => {
  const answers = await inParallel(300, 16, async () => (await initiate(ussdBody(m.publicKey, { bankCode: "058" }))).json.data.payments);
  const refs = answers.map((p: { providerreference: string }) => p.providerreference);
  for (const ref of refs) assert.match(ref, /^\d{8}$/);
  assert.equal(new Set(refs).size, refs.length);
});
