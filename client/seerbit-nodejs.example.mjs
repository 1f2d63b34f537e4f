// A backend written for SeerBit, with SeerBit's own Node SDK (seerbit-nodejs), pointed at Owo. The docs show this
// very file and server/http/seerbit-sdk.test.ts runs it against a real Owo behind TLS: what you read is what works.
//   export OWO_URL=https://pay.example.ng PUBLIC_KEY=pk_test_… SECRET_KEY=sk_test_… TOKEN=owo_test_…
//   node seerbit-nodejs.example.mjs
import seerbit from "seerbit-nodejs";

const { Client, Config, StandardCheckout, VerificationService, AccountsService } = seerbit;

const client = new Client(
  new Config({ publicKey: process.env.PUBLIC_KEY, secretKey: process.env.SECRET_KEY, bearerToken: process.env.TOKEN }),
);
// The one change: Owo's base URL instead of SeerBit's (set after new Client, which picks SeerBit's by environment).
client.config.endpoint = `${process.env.OWO_URL}/api/v2/`;

// Standard checkout, exactly as SeerBit's own sample sends it: send the customer to redirectLink.
const paymentReference = String(Date.now());
const checkout = await new StandardCheckout(client).Initialize({
  amount: 100,
  callbackUrl: "www.testapp.com",
  country: "NG",
  currency: "NGN",
  email: "testmerchant@mailinator.com",
  paymentReference,
});
console.log("send the customer to", checkout.data.payments.redirectLink);

// Before delivering: only code "00" is paid. Until the customer chooses USSD or TRANSFER, paymentType is null.
const verified = await new VerificationService(client).Verify({ paymentReference });
console.log("status", verified.data.payments.status, "code", verified.data.code, "paymentType", verified.data.payments.paymentType);

// The banks this merchant's customers can pay from by USSD, in this key's mode.
const banks = await new AccountsService(client).BanksList();
console.log("USSD banks", banks.data.merchantBanks.filter((b) => b.supportsUssd).length);
