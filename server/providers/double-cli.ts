// `npm run double -- <provider> --port N [--secret-key K] [--secret-hash H] [--webhook-url U] [--refund-delay-ms N]
// [--public-key P] [--fee-bearer merchant|customer] [--refunds approved|not-approved] [--retry-delays-ms 200,1000]`: a provider's test
// double as its own process on 127.0.0.1, for tests and for trying Owo's live mode with no network. Prints one JSON
// line `{"double":…,"url":…}` once it listens; SIGTERM or SIGINT closes it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createFlutterwaveDouble } from "./flutterwave/double";
import { createPaystackDouble } from "./paystack/double";
import { createSeerBitDouble } from "./seerbit/double";
import { faultKinds } from "./test-double/faults";

type Flags = Record<string, string>;
type Double = { server: Server; close: () => Promise<void> };

/** One line per provider double; each reads the flags it needs. */
const doubles: Record<string, (flags: Flags) => Double> = {
  flutterwave: (f) =>
    createFlutterwaveDouble({
      secretKey: f["secret-key"] ?? "FLWSECK_TEST-owo-double-X",
      secretHash: f["secret-hash"] ?? "owo-double-secret-hash",
      ...(f["webhook-url"] ? { webhookUrl: f["webhook-url"] } : {}),
      ...(f["refund-delay-ms"] ? { refundDelayMs: Number(f["refund-delay-ms"]) } : {}),
    }),
  paystack: (f) =>
    createPaystackDouble({
      secretKey: f["secret-key"] ?? "sk_test_owo_double",
      ...(f["webhook-url"] ? { webhookUrl: f["webhook-url"] } : {}),
      ...(f["refund-delay-ms"] ? { refundDelayMs: Number(f["refund-delay-ms"]) } : {}),
    }),
  seerbit: (f) =>
    createSeerBitDouble({
      publicKey: f["public-key"] ?? "SBTESTPUBK_owo_double",
      secretKey: f["secret-key"] ?? "SBTESTSECK_owo_double",
      ...(f["webhook-url"] ? { webhookUrl: f["webhook-url"] } : {}),
      feeBearer: f["fee-bearer"] === "customer" ? "customer" : "merchant",
      refundsApproved: f.refunds !== "not-approved",
      ...(f["retry-delays-ms"] ? { retryDelaysMs: f["retry-delays-ms"].split(",").map(Number) } : {}),
    }),
};

function parseFlags(args: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) throw new Error(`unexpected argument ${arg}`);
    const [name = "", inline] = arg.slice(2).split("=", 2);
    flags[name] = inline ?? args[++i] ?? "";
  }
  return flags;
}

const [provider = "", ...rest] = process.argv.slice(2);
const start = doubles[provider];
if (!start) {
  process.stderr
    .write(`usage: npm run double -- <${Object.keys(doubles).join("|")}> --port N [--secret-key K] [--secret-hash H] [--webhook-url U] [--refund-delay-ms N]
  seerbit: [--public-key P] [--fee-bearer merchant|customer] [--refunds approved|not-approved] [--retry-delays-ms 200,1000,3000]
control routes (no key): GET /_double, GET /_double/transactions/<reference>, POST …/<reference>/pay {"amount"?: kobo},
  POST …/<reference>/decline, POST …/<reference>/expire, POST /_double/faults {"kind","times"?,"path"?}, POST /_double/faults/release (answers what a hang holds), DELETE /_double/faults,
  PUT /_double/webhook-url {"url"}, GET /_double/webhooks, POST /_double/webhooks/release, POST /_double/webhooks/replay
  paystack, flutterwave (live keys only): POST /_double/settlements settles what the double holds
    paystack {"status"?: success|pending|processing|failed, "deductions"?: kobo, "omit"?: [reference]}
    flutterwave {"status"?: pending|completed, "flag"?: why, "destination"?: account|autowallet, "chargeback"?: kobo, "omit"?: [tx_ref]}
  POST /_double/settlements/<id> {"status"} (flutterwave also {"flag": null} to release a flagged one)
  paystack: POST …/<reference>/status {"status": ongoing|processing|queued|pending}, POST …/<reference>/chargeback {"amount"?: kobo}
    (a dispute lost: reversed, charge.dispute.resolve, its refund), POST /_double/integration {"customerBearsFees"?, "refundsNeedingAttention"?, "refundsProcessing"?, "refundsListedAsSample"?},
    POST /_double/refunds/<id>/status {"status": processed|failed} (a needs-attention or processing refund settled)
  flutterwave: POST /_double/integration {"refundPaidWord"?: completed|successful|completed-bank-transfer, "webhookSignature"?: verif-hash|flutterwave-signature,
    "feeBearer"?: merchant|customer}
fault kinds: ${faultKinds.join(", ")}\n`);
  process.exit(2);
}
const flags = parseFlags(rest);
const double = start(flags);
double.server.listen(Number(flags.port ?? 0), "127.0.0.1", () => {
  const { port } = double.server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ double: provider, url: `http://127.0.0.1:${port}` })}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void double.close().then(() => process.exit(0)));
