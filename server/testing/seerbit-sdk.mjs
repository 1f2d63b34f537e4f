// Runs SeerBit's own Node SDK (seerbit-nodejs, unchanged) as a merchant's backend would, against the endpoint given.
// Its own process: the SDK trusts only the system's CAs plus NODE_EXTRA_CA_CERTS, read at start-up.
// Usage: node seerbit-sdk.mjs <initialize|verify|banks> '<json: endpoint, publicKey, secretKey, token, payload?, paymentReference?>'
import sdk from "seerbit-nodejs";

const { Client, Config, StandardCheckout, VerificationService, AccountsService } = sdk;
const [action, inputJson] = process.argv.slice(2);
const input = JSON.parse(inputJson ?? "{}");

const client = new Client(new Config({ publicKey: input.publicKey, secretKey: input.secretKey, bearerToken: input.token }));
// The SDK's one way to another host: `new Client` sets the endpoint from its environment, so it is set after.
client.config.endpoint = input.endpoint;

const calls = {
  initialize: () => new StandardCheckout(client).Initialize(input.payload),
  verify: () => new VerificationService(client).Verify({ paymentReference: input.paymentReference }),
  banks: () => new AccountsService(client).BanksList(),
};

// The SDK prints to stdout itself on network errors; the result goes on its own marked line.
calls[action]().then(
  (answer) => console.log(`RESULT ${JSON.stringify({ ok: true, answer })}`),
  (error) =>
    console.log(
      `RESULT ${JSON.stringify({ ok: false, error: String(error?.message ?? error), statusCode: error?.statusCode ?? null, body: error?.responseBody ?? null })}`,
    ),
);
