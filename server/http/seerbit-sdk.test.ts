// SeerBit's Node SDK (seerbit-nodejs from npm), unchanged, against a running Owo behind a TLS front this test starts.
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { call, type Owo } from "../testing/harness";
import { startInitiating, trpcClient, ussdBody, type InitiatingMerchant } from "../testing/initiation";

let owo: Owo;
let m: InitiatingMerchant;
let certDir: string;
let front: TlsServer;
let endpoint: string;

/** A self-signed certificate for 127.0.0.1, made for this run only. */
function makeCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}

before(async () => {
  m = await startInitiating();
  owo = m.owo;
  certDir = mkdtempSync(join(tmpdir(), "owo-tls-"));
  const { key, cert } = makeCertificate(certDir);
  // A TLS terminator as a deployment puts in front of Owo: it decrypts and passes the SDK's bytes on unchanged.
  const owoPort = Number(new URL(owo.url).port);
  front = createTlsServer({ key, cert }, (clear) => {
    const upstream = connect(owoPort, "127.0.0.1");
    clear.pipe(upstream).pipe(clear);
    clear.on("error", () => upstream.destroy());
    upstream.on("error", () => clear.destroy());
  });
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  endpoint = `https://127.0.0.1:${(front.address() as AddressInfo).port}/api/v2/`;
});
after(async () => {
  await new Promise((r) => front.close(r));
  await owo.stop();
  rmSync(certDir, { recursive: true, force: true });
});

type SdkResult = { ok: boolean; answer?: any; error?: string; statusCode?: number | null; body?: string | null }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the SDK's answers are inspected field by field

/** One SDK call in its own process, trusting this run's certificate the way Node lets any process: NODE_EXTRA_CA_CERTS. */
async function sdk(action: "initialize" | "verify" | "banks", input: Record<string, unknown> = {}): Promise<SdkResult> {
  const args = { endpoint, publicKey: m.merchant.publicKey, secretKey: m.merchant.secretKey, token: m.token, ...input };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(import.meta.dirname, "../testing/seerbit-sdk.mjs"), action, JSON.stringify(args)],
    {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(certDir, "cert.pem") },
      timeout: 20_000,
    },
  );
  const line = stdout.split("\n").find((l) => l.startsWith("RESULT "));
  assert.ok(line, `the SDK printed no result: ${stdout}`);
  return JSON.parse(line.slice("RESULT ".length)) as SdkResult;
}

test("StandardCheckout.Initialize with the SDK's own sample payload opens a hosted checkout; a second Initialize replays it", async () => {
  // samples/standard/standardCheckout.js of seerbit-nodejs, as published: amount and reference as numbers, no scheme.
  const payload = {
    amount: 100,
    callbackUrl: "www.testapp.com",
    country: "NG",
    currency: "NGN",
    email: "testmerchant@mailinator.com",
    paymentReference: Date.now(),
  };
  const result = await sdk("initialize", { payload });
  assert.ok(result.ok, JSON.stringify(result));
  assert.equal(result.answer.status, "SUCCESS");
  assert.deepEqual([result.answer.data.code, result.answer.data.message], ["00", "Successful"]);
  const p = result.answer.data.payments;
  assert.equal(p.paymentReference, String(payload.paymentReference));
  assert.equal(p.paymentStatus, "08");
  assert.equal(p.redirectLink, `${owo.url}/checkout/${p.linkingReference}`);

  // What the hosted checkout at redirectLink offers the customer: USSD at the sandbox's banks, or TRANSFER.
  const offered = await trpcClient(owo, "").checkout.status.query({ linkingReference: p.linkingReference });
  assert.ok(offered.open && offered.issued === null && (offered.offer?.ussdBanks.length ?? 0) > 0);
  const verified = await sdk("verify", { paymentReference: String(payload.paymentReference) });
  assert.deepEqual(
    [verified.answer.data.code, verified.answer.data.payments.paymentType, verified.answer.data.payments.status],
    ["S20", null, "PENDING"],
  );
  const again = await sdk("initialize", { payload });
  assert.deepEqual(again.answer, result.answer);
});

test("VerificationService.Verify (a GET with an unframed body, Connection: close) gets verify's answer", async () => {
  const body = ussdBody(m.merchant.publicKey);
  const reference = String(body.paymentReference);
  assert.equal((await call(owo, "POST", "/api/v2/payments/initiates", { token: m.token, body })).status, 200);

  const pending = await sdk("verify", { paymentReference: reference });
  assert.ok(pending.ok, JSON.stringify(pending));
  assert.equal(pending.answer.status, "SUCCESS");
  assert.equal(pending.answer.data.code, "S20");
  assert.equal(pending.answer.data.payments.paymentReference, reference);
  assert.equal(pending.answer.data.payments.status, "PENDING");

  await call(owo, "POST", `/api/v2/sandbox/payments/${reference}/simulate`, { token: m.token, body: { outcome: "pay" } });
  const paid = await sdk("verify", { paymentReference: reference });
  assert.ok(paid.ok, JSON.stringify(paid));
  const direct = await call(owo, "GET", `/api/v2/payments/query/${reference}`, { token: m.token });
  assert.deepEqual(paid.answer, direct.json, "the same answer as a plain client gets");
  assert.equal(paid.answer.data.code, "00");
  assert.equal(paid.answer.data.payments.gatewayCode, "00");
  assert.equal(paid.answer.data.payments.amountPaid, "1500.00");

  const unknown = await sdk("verify", { paymentReference: "no-such-order" });
  assert.equal(unknown.ok, false, JSON.stringify(unknown));
  assert.equal(JSON.parse(unknown.body ?? "{}").data.code, "S404");
});

test("AccountsService.BanksList gets the merchant's banks", async () => {
  const result = await sdk("banks");
  assert.ok(result.ok, JSON.stringify(result));
  // payments/merchant-banks.test holds what the list says; here the SDK gets it as a plain client does.
  const direct = await call(owo, "GET", `/api/v2/banks/merchant/${m.merchant.publicKey}`, { token: m.token });
  assert.deepEqual(result.answer, direct.json, "the same answer as a plain client gets");
  assert.equal(result.answer.status, "SUCCESS");
  assert.equal(result.answer.data.code, "00");
  const gtb = result.answer.data.merchantBanks.find((b: { bankCode: string }) => b.bankCode === "058");
  assert.equal(gtb?.ussdCode, "*737#");
});

test("the docs' example backend (client/seerbit-nodejs.example.mjs) runs as printed, only OWO_URL pointing at Owo", async () => {
  const origin = endpoint.replace(/\/api\/v2\/$/, "");
  const { stdout } = await promisify(execFile)(process.execPath, [join(import.meta.dirname, "../../client/seerbit-nodejs.example.mjs")], {
    env: {
      ...process.env,
      NODE_EXTRA_CA_CERTS: join(certDir, "cert.pem"),
      OWO_URL: origin,
      PUBLIC_KEY: m.merchant.publicKey,
      SECRET_KEY: m.merchant.secretKey,
      TOKEN: m.token,
    },
    timeout: 20_000,
  });
  assert.match(stdout, new RegExp(`^send the customer to ${owo.url.replace(/[.]/g, "\\.")}/checkout/OWO\\d{17}$`, "m"));
  assert.match(stdout, /^status PENDING code S20 paymentType null$/m);
  assert.match(stdout, /^USSD banks [1-9]\d*$/m);
});
