// The running server's real answers fit the served OpenAPI document (document.test.ts holds the document itself): each
// status an operation answers is documented for it, and each body fits its schema with every object closed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { call } from "../testing/harness";
import { transferBody, ussdBody } from "../testing/initiation";
import { documentSuite } from "../testing/openapi-document";

const doc = documentSuite();
const fits = doc.fits;

describe("the server's real answers fit the document", () => {
  it("token exchange, banks", async () => {
    const { owo, merchant, token } = doc;
    fits(
      await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `${merchant.secretKey}.${merchant.publicKey}` } }),
      "/api/v2/encrypt/keys",
      "post",
    );
    fits(
      await call(owo, "POST", "/api/v2/encrypt/keys", { body: { key: `sk_test_nope.${merchant.publicKey}` } }),
      "/api/v2/encrypt/keys",
      "post",
    );
    fits(await call(owo, "POST", "/api/v2/encrypt/keys", { body: {} }), "/api/v2/encrypt/keys", "post");
    fits(await call(owo, "GET", "/api/v2/banks"), "/api/v2/banks", "get");
    const merchantBanks = "/api/v2/banks/merchant/{publicKey}";
    fits(await call(owo, "GET", `/api/v2/banks/merchant/${merchant.publicKey}`, { token }), merchantBanks, "get");
    fits(await call(owo, "GET", "/api/v2/banks/merchant/pk_test_someone_else", { token }), merchantBanks, "get");
  });

  it("standard checkout, and verify before the customer chose a channel", async () => {
    const { owo, merchant, token } = doc;
    const path = "/api/v2/payments";
    const body = {
      amount: 100,
      callbackUrl: "www.testapp.com",
      country: "NG",
      currency: "NGN",
      email: "t@example.com",
      paymentReference: Date.now(),
      productId: null,
      productDescription: null,
      publicKey: merchant.publicKey,
    };
    const created = await call(owo, "POST", path, { token, body });
    assert.equal(created.status, 200);
    fits(created, path, "post");
    fits(await call(owo, "POST", path, { token, body: { ...body, amount: 300 } }), path, "post");
    fits(await call(owo, "POST", path, { token, body: { ...body, email: "nope" } }), path, "post");
    const verified = await call(owo, "GET", `/api/v3/payments/query/${body.paymentReference}`, { token });
    assert.equal(verified.json.data.payments.paymentType, null);
    fits(verified, "/api/v3/payments/query/{paymentReference}", "get");
  });

  it("initiate USSD and TRANSFER, simulate, verify on v2 and v3", async () => {
    const { owo, merchant, token } = doc;
    const initiates = "/api/v2/payments/initiates";
    const ussd = await call(owo, "POST", initiates, { token, body: ussdBody(merchant.publicKey) });
    const transfer = await call(owo, "POST", initiates, { token, body: transferBody(merchant.publicKey, { amount: "2000" }) });
    assert.equal(ussd.status, 200);
    assert.equal(transfer.status, 200);
    fits(ussd, initiates, "post");
    fits(transfer, initiates, "post");

    const simulate = (ref: string) => `/api/v2/sandbox/payments/${ref}/simulate`;
    const simulatePath = "/api/v2/sandbox/payments/{paymentReference}/simulate";
    const ussdRef = ussd.json.data.payments.paymentReference as string;
    const transferRef = transfer.json.data.payments.paymentReference as string;
    fits(await call(owo, "POST", simulate(ussdRef), { token, body: { outcome: "pay" } }), simulatePath, "post");
    fits(await call(owo, "POST", simulate(transferRef), { token, body: { outcome: "pay", amount: "700.00" } }), simulatePath, "post");
    fits(await call(owo, "POST", simulate(transferRef), { token, body: { outcome: "decline" } }), simulatePath, "post");
    fits(await call(owo, "POST", simulate("ord-none"), { token, body: { outcome: "pay" } }), simulatePath, "post");

    for (const version of ["v2", "v3"]) {
      const path = `/api/${version}/payments/query/{paymentReference}`;
      const paid = await call(owo, "GET", `/api/${version}/payments/query/${ussdRef}`, { token });
      assert.equal(paid.json.data.payments.status, "SUCCESSFUL");
      fits(paid, path, "get");
      const partly = await call(owo, "GET", `/api/${version}/payments/query/${transferRef}`, { token });
      assert.equal(partly.json.data.payments.status, "PARTIALLY_PAID");
      assert.equal(partly.json.data.payments.paidAt, null);
      fits(partly, path, "get");
      fits(await call(owo, "GET", `/api/${version}/payments/query/ord-none`, { token }), path, "get");
      fits(await call(owo, "GET", `/api/${version}/payments/query/${ussdRef}`, { token: "owo_test_forged" }), path, "get");
    }
  });

  it("cancel: a pending payment, then the same again (409 S15), and an unknown one", async () => {
    const { owo, merchant, token } = doc;
    const path = "/api/v2/payments/{paymentReference}/cancel";
    const body = ussdBody(merchant.publicKey);
    await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    const cancelled = await call(owo, "POST", `/api/v2/payments/${String(body.paymentReference)}/cancel`, { token });
    assert.equal(cancelled.json.data.payments.status, "CANCELLED");
    fits(cancelled, path, "post");
    const again = await call(owo, "POST", `/api/v2/payments/${String(body.paymentReference)}/cancel`, { token });
    assert.equal(again.status, 409);
    fits(again, path, "post");
    fits(await call(owo, "POST", "/api/v2/payments/ord-none/cancel", { token }), path, "post");
  });

  it("refunds: accepted, more than refundable (409 S15), a bad amount, an unknown payment", async () => {
    const { owo, merchant, token } = doc;
    const path = "/api/v2/payments/{paymentReference}/refunds";
    const body = ussdBody(merchant.publicKey);
    const ref = String(body.paymentReference);
    await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    await call(owo, "POST", `/api/v2/sandbox/payments/${ref}/simulate`, { token, body: { outcome: "pay" } });
    const accepted = await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, {
      token,
      body: { amount: "500", reason: "one item", refundReference: "rf-doc-1" },
    });
    assert.equal(accepted.status, 200, accepted.text);
    fits(accepted, path, "post");
    const tooMuch = await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount: "1000.01", reason: "too much" } });
    assert.equal(tooMuch.status, 409);
    fits(tooMuch, path, "post");
    fits(await call(owo, "POST", `/api/v2/payments/${ref}/refunds`, { token, body: { amount: "1.234", reason: "x" } }), path, "post");
    fits(await call(owo, "POST", "/api/v2/payments/ord-none/refunds", { token, body: { reason: "x" } }), path, "post");
    // The sandbox bank never needs the customer's account: a PENDING refund takes none and cannot be given up (409 S15).
    const account = "/api/v2/payments/{paymentReference}/refunds/{refundReference}/account";
    const given = await call(owo, "POST", `/api/v2/payments/${ref}/refunds/rf-doc-1/account`, {
      token,
      body: { bankCode: "058", accountNumber: "0123456785" },
    });
    assert.equal(given.status, 409, given.text);
    fits(given, account, "post");
    fits(await call(owo, "POST", `/api/v2/payments/${ref}/refunds/rf-doc-1/account`, { token, body: { bankCode: "58" } }), account, "post");
    fits(await call(owo, "POST", `/api/v2/payments/${ref}/refunds/rf-none/account`, { token, body: {} }), account, "post");
    const cancel = "/api/v2/payments/{paymentReference}/refunds/{refundReference}/cancel";
    const givenUp = await call(owo, "POST", `/api/v2/payments/${ref}/refunds/rf-doc-1/cancel`, { token });
    assert.equal(givenUp.status, 409, givenUp.text);
    fits(givenUp, cancel, "post");
  });

  it("errors: every field at fault, a single field, a replayed reference, the wrong content type", async () => {
    const { owo, merchant, token } = doc;
    const initiates = "/api/v2/payments/initiates";
    const many = await call(owo, "POST", initiates, { token, body: ussdBody(merchant.publicKey, { email: "nope", mobileNumber: "12" }) });
    assert.equal(many.json.data.code, "S5");
    fits(many, initiates, "post");
    const amount = await call(owo, "POST", initiates, { token, body: ussdBody(merchant.publicKey, { amount: "1.5.0" }) });
    assert.equal(amount.json.data.code, "S2");
    fits(amount, initiates, "post");
    const first = ussdBody(merchant.publicKey);
    await call(owo, "POST", initiates, { token, body: first });
    const replay = await call(owo, "POST", initiates, { token, body: { ...first, amount: "2000" } });
    assert.equal(replay.status, 409);
    fits(replay, initiates, "post");
    fits(await call(owo, "POST", initiates, { token, raw: "{}", headers: { "content-type": "text/plain" } }), initiates, "post");
  });

  it("settlements, the report, a resolve and a bank statement", async () => {
    const { owo, merchant, token } = doc;
    const body = transferBody(merchant.publicKey, { amount: "2500" });
    await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    await call(owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, { token, body: { outcome: "pay" } });
    const settled = await call(owo, "POST", "/api/v2/sandbox/settlements", { token, body: { feeBy: "5.00", adjustment: "50.00" } });
    assert.equal(settled.status, 200, settled.text);
    fits(settled, "/api/v2/sandbox/settlements", "post");
    fits(
      await call(owo, "POST", "/api/v2/sandbox/settlements", { token, body: { shortBy: "lots" } }),
      "/api/v2/sandbox/settlements",
      "post",
    );
    const id = settled.json.data.settlement.settlementId as string;
    fits(await call(owo, "GET", "/api/v2/settlements?status=paid&providerId=sandbox", { token }), "/api/v2/settlements", "get");
    fits(await call(owo, "GET", "/api/v2/settlements?status=lost", { token }), "/api/v2/settlements", "get");
    fits(await call(owo, "GET", `/api/v2/settlements/${id}`, { token }), "/api/v2/settlements/{settlementId}", "get");
    fits(await call(owo, "GET", "/api/v2/settlements/stl_none", { token }), "/api/v2/settlements/{settlementId}", "get");
    const day = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const report = await call(owo, "GET", `/api/v2/reconciliation?from=${day}&to=${day}`, { token });
    assert.ok(report.json.data.report.exceptions.length > 0, report.text);
    fits(report, "/api/v2/reconciliation", "get");
    fits(await call(owo, "GET", "/api/v2/reconciliation?from=yesterday", { token }), "/api/v2/reconciliation", "get");
    const resolvePath = "/api/v2/reconciliation/exceptions/{exceptionId}/resolve";
    const exceptionId = report.json.data.report.exceptions[0].exceptionId as string;
    const resolve = (note: string) =>
      call(owo, "POST", `/api/v2/reconciliation/exceptions/${exceptionId}/resolve`, { token, body: { note } });
    fits(await resolve("checked with the bank"), resolvePath, "post");
    fits(await resolve("again"), resolvePath, "post");
    fits(await resolve(""), resolvePath, "post");
    const net = settled.json.data.settlement.netAmount as string;
    const lines = [{ date: day, amount: net, reference: "NIP/1", narration: "OWO SANDBOX SETTLEMENT" }];
    fits(
      await call(owo, "POST", "/api/v2/bank-statements", { token, body: { accountNumber: "0123456789", lines } }),
      "/api/v2/bank-statements",
      "post",
    );
    fits(
      await call(owo, "POST", "/api/v2/bank-statements", { token, body: { accountNumber: "12", lines } }),
      "/api/v2/bank-statements",
      "post",
    );
  });

  it("balances, the ledger's entries and a fee quote", async () => {
    const { owo, merchant, token } = doc;
    const body = transferBody(merchant.publicKey, { amount: "2500" });
    await call(owo, "POST", "/api/v2/payments/initiates", { token, body });
    await call(owo, "POST", `/api/v2/sandbox/payments/${String(body.paymentReference)}/simulate`, { token, body: { outcome: "pay" } });
    const balances = await call(owo, "GET", "/api/v2/balances", { token });
    assert.equal(balances.status, 200, balances.text);
    assert.ok(balances.json.data.ledgerHead.sequence > 0);
    fits(balances, "/api/v2/balances", "get");
    fits(await call(owo, "GET", "/api/v2/balances", { token: "owo_test_forged" }), "/api/v2/balances", "get");
    const entries = "/api/v2/ledger/entries";
    const page = await call(owo, "GET", `${entries}?limit=1`, { token });
    assert.equal(page.json.data.entries.length, 1, page.text);
    assert.ok(page.json.data.nextCursor, page.text);
    fits(page, entries, "get");
    fits(await call(owo, "GET", `${entries}?paymentReference=${String(body.paymentReference)}`, { token }), entries, "get");
    fits(await call(owo, "GET", `${entries}?limit=501&from=yesterday`, { token }), entries, "get");
    const quote = "/api/v2/fees/quote";
    const quoted = await call(owo, "GET", `${quote}?amount=10000.00&paymentType=TRANSFER`, { token });
    assert.deepEqual(quoted.json.data.quotes, [{ provider: "sandbox", providerId: "sandbox", fee: "250.00", net: "9750.00" }]);
    fits(quoted, quote, "get");
    fits(await call(owo, "GET", `${quote}?amount=ten&paymentType=USSD`, { token }), quote, "get");
  });
});
