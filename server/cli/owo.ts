// The operator CLI (API.md "Operator CLI"): merchant create, keys roll, user reset-password, mail list.
import { parseArgs } from "node:util";
import { closeDatabase, migrateDatabase } from "../../db/client";
import { ApiError } from "../api-error";
import { rollSecretKey } from "../auth/api-keys";
import { allMail } from "../mail/outbox";
import { createMerchant } from "../merchants/create-merchant";
import { resetPassword } from "../users/users";

const HELP = `Owo operator CLI

  npm run owo -- merchant create --name "Acme" --email owner@acme.ng --password '…' [--json]
      Creates a merchant, its owner, test keys and a test signing secret; prints the secrets once.
  npm run owo -- keys roll --merchant <merchantId> [--mode test] [--grace-seconds 0] [--json]
      Issues a new secret key for the same public key; the old one dies at once or after the grace period.
  npm run owo -- user reset-password --email <email> --password '…'
      Sets a user's password.
  npm run owo -- mail list [--to <email>] [--limit 20] [--json]
      Prints the mail this Owo sent or keeps in its outbox (with no OWO_SMTP_URL, mail is only kept), newest first.

Uses DATABASE_URL (default ./data/owo.db) and migrates it first.`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" }, email: { type: "string" }, password: { type: "string" }, merchant: { type: "string" },
      mode: { type: "string", default: "test" }, to: { type: "string" }, limit: { type: "string", default: "20" }, "grace-seconds": { type: "string", default: "0" },
      json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false },
    },
  });
  const command = positionals.join(" ");
  if (values.help || command === "" || command === "help") {
    console.log(HELP);
    return 0;
  }
  migrateDatabase();
  const print = (data: Record<string, unknown>, human: string) => console.log(values.json ? JSON.stringify(data) : human);
  switch (command) {
    case "merchant create": {
      const m = await createMerchant({ name: values.name ?? "", email: values.email ?? "", password: values.password ?? "", emailVerified: true });
      const out = { merchantId: m.merchantId, publicKey: m.publicKey, secretKey: m.secretKey, webhookSecret: m.webhookSecret };
      print(out, `Merchant ${m.merchantId} created.\n  public key:     ${m.publicKey}\n  secret key:     ${m.secretKey}\n  webhook secret: ${m.webhookSecret}\nThe secrets are shown once; store them now.`);
      return 0;
    }
    case "keys roll": {
      if (!values.merchant) throw new ApiError("S5", "--merchant <merchantId> is required");
      const mode = values.mode === "live" ? "live" : "test";
      const rolled = rollSecretKey(values.merchant, mode, Number(values["grace-seconds"]));
      print({ merchantId: values.merchant, publicKey: rolled.publicKey, secretKey: rolled.secretKey }, `New secret key (shown once): ${rolled.secretKey}`);
      return 0;
    }
    case "user reset-password": {
      const { email } = await resetPassword(values.email ?? "", values.password ?? "");
      print({ email }, `Password reset for ${email}.`);
      return 0;
    }
    case "mail list": {
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new ApiError("S5", "--limit must be a whole number from 1 to 1000");
      const list = allMail({ to: values.to, limit });
      const human = list.length
        ? list
            .map((m) => [`#${m.id} ${m.createdAt} ${m.status === "pending" ? "kept, not sent" : m.status} · to ${m.to}`, `Subject: ${m.subject}`, "", m.text.trimEnd()].join("\n"))
            .join(`\n\n${"=".repeat(72)}\n\n`)
        : "No mail.";
      print({ mails: list }, human);
      return 0;
    }
    default:
      console.error(`Unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
}

run(process.argv.slice(2))
  .then((code) => {
    closeDatabase();
    process.exit(code);
  })
  .catch((err: unknown) => {
    const message = err instanceof ApiError ? [err.message, ...err.errors.map((e) => `  ${e.field} ${e.message}`)].join("\n") : String(err);
    console.error(`error: ${message}`);
    process.exit(1);
  });
