// The operator CLI (API.md "Operator CLI"): merchant create, keys roll / create, provider add / fees, user reset-password, mail list,
// db copy, db backup / restore, ledger verify.
import { parseArgs } from "node:util";
import { closeDatabase, migrateDatabase } from "../../db/client";
import { copySqliteToPostgres } from "../../db/copy";
import { UnusableDatabaseUrl } from "../../db/location";
import { ApiError } from "../api-error";
import { createLiveKeys, rollSecretKey } from "../auth/api-keys";
import { noticeUrlWarning } from "../providers/accounts";
import { connectTestedProvider } from "../providers/registry";
import { allMail } from "../mail/outbox";
import { createMerchant } from "../merchants/create-merchant";
import { listMerchants } from "../merchants/operator-list";
import { resetPassword } from "../users/users";
import { BackupRefused, restoreBackup, takeBackup } from "../backups/backup";
import { verifyLedger } from "../books/verify";
import { setFeeScheduleOf } from "../books/fee-schedules";

const HELP = `Owo operator CLI

  npm run owo -- merchant create --name "Acme" --email owner@acme.ng --password '…' [--json]
      Creates a merchant, its owner, test keys and a test signing secret; prints the secrets once.
  npm run owo -- merchant list [--json]
      Lists every merchant's id (what --merchant takes), name and owner's e-mail.
  npm run owo -- keys roll --merchant <merchantId> [--mode test] [--grace-seconds 0] [--json]
      Issues a new secret key for the same public key; the old one dies at once or after the grace period.
  npm run owo -- keys create --merchant <merchantId> --mode live [--json]
      Creates the live key pair and live signing secret, once a bank-side provider is connected.
  npm run owo -- provider add <paystack|flutterwave|seerbit> --merchant <merchantId> [--priority N] [--base-url <url>] [--json]
      --secret-key …   (Flutterwave also --secret-hash …; SeerBit --public-key … and --secret-key …)
      Tries the credentials at the provider, then connects the account for live mode; prints its notice URL.
  npm run owo -- provider fees --provider <prv_…> --percent 1.5 [--flat 100] [--flat-waived-under 2500] [--cap 2000] [--json]
      Sets the fee schedule the merchant agreed with that provider account (the fee quote uses it in live mode).
  npm run owo -- user reset-password --email <email> --password '…'
      Sets a user's password.
  npm run owo -- mail list [--to <email>] [--limit 20] [--json]
      Prints the mail this Owo sent or keeps in its outbox (with no OWO_SMTP_URL, mail is only kept), newest first.
  npm run owo -- db copy --from ./data/owo.db --to postgres://user:password@host:5432/owo [--json]
      Copies every row of a SQLite database into an empty PostgreSQL one (migrated first), then compares the counts.
  npm run owo -- db backup --to <file> --passphrase-file <file> [--json]
      A consistent copy of the live SQLite database with its master key and auth secret, sealed with the passphrase.
  npm run owo -- db restore --from <file> --passphrase-file <file> [--json]
      Puts a backup back into an empty data folder (where DATABASE_URL points), then checks it.
  npm run owo -- ledger verify [--merchant <merchantId>] [--expect-head <sequence>:<hash> [--mode test]] [--json]
      Recomputes every ledger chain and balance; exit 1 at the first fault (a head other than the one expected is one).

Uses DATABASE_URL (default ./data/owo.db) and migrates it first (db copy uses only --from and --to).`;

async function copyDatabase(from: string | undefined, to: string | undefined, json: boolean): Promise<number> {
  if (!from || !to) throw new ApiError("S5", "db copy needs --from <SQLite file> and --to <postgres:// URL>");
  const counted = await copySqliteToPostgres(from, to);
  const differ = counted.filter((c) => c.sqlite !== c.postgres);
  if (json) console.log(JSON.stringify({ tables: counted, verified: differ.length === 0 }));
  else {
    for (const c of counted)
      console.log(
        `${c.table.padEnd(24)} ${String(c.sqlite).padStart(10)} → ${String(c.postgres).padStart(10)}${c.sqlite === c.postgres ? "" : "  DIFFERS"}`,
      );
    console.log(
      differ.length === 0 ? "Every row copied; the counts agree." : `The counts differ in ${differ.map((c) => c.table).join(", ")}.`,
    );
  }
  return differ.length === 0 ? 0 : 1;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      merchant: { type: "string" },
      mode: { type: "string", default: "test" },
      priority: { type: "string" },
      "base-url": { type: "string" },
      from: { type: "string" },
      "secret-key": { type: "string" },
      "secret-hash": { type: "string" },
      "public-key": { type: "string" },
      provider: { type: "string" },
      percent: { type: "string" },
      flat: { type: "string" },
      "flat-waived-under": { type: "string" },
      cap: { type: "string" },
      to: { type: "string" },
      "passphrase-file": { type: "string" },
      "expect-head": { type: "string" },
      limit: { type: "string", default: "20" },
      "grace-seconds": { type: "string", default: "0" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const command = positionals.join(" ");
  if (values.help || command === "" || command === "help") {
    console.log(HELP);
    return 0;
  }
  const print = (data: Record<string, unknown>, human: string) => console.log(values.json ? JSON.stringify(data) : human);
  if (command === "db copy") return copyDatabase(values.from, values.to, values.json);
  if (command === "db backup") {
    const made = await takeBackup(values.to, values["passphrase-file"]);
    print(made, `Backed up ${made.payments} payments to ${made.to} (${made.bytes} bytes). Keep the passphrase apart from it.`);
    return 0;
  }
  if (command === "db restore") {
    const r = await restoreBackup(values.from, values["passphrase-file"]);
    // The restored file is brought to this version as a start would, then its books are recomputed (API.md: "then
    // `ledger verify`"): a copy whose ledger does not hold is no backup to run on.
    await migrateDatabase();
    const ledger = await verifyLedger();
    const good = r.integrity === "ok" && r.secretsOpen && ledger.ok;
    print(
      { ...r, ledger, verified: good },
      `Restored ${r.payments} payments (backup of ${r.backupCreatedAt}) into ${r.restored}: integrity ${r.integrity}, ` +
        `sealed secrets ${r.secretsOpen ? "open" : "DO NOT OPEN"} with the restored master key, ` +
        (ledger.ok
          ? `the books hold (${ledger.entries} entries recomputed).`
          : `LEDGER FAULT in ${ledger.fault.merchantId}/${ledger.fault.mode}: ${ledger.fault.reason}.`),
    );
    return good ? 0 : 1;
  }
  await migrateDatabase();
  if (positionals[0] === "provider" && positionals[1] === "add" && positionals.length === 3) {
    if (!values.merchant) throw new ApiError("S5", "--merchant <merchantId> is required");
    const priority = values.priority === undefined ? undefined : Number(values.priority);
    const added = await connectTestedProvider(
      values.merchant,
      {
        provider: positionals[2] ?? "",
        credentials: { secretKey: values["secret-key"], secretHash: values["secret-hash"], publicKey: values["public-key"] },
        priority,
        baseUrl: values["base-url"],
      },
      { baseUrlAllowed: true },
    );
    const warning = noticeUrlWarning(added.noticeUrl);
    if (warning) console.error(`warning: ${warning}`);
    print(
      added,
      `Provider ${added.provider} connected as ${added.providerId}.\n  Register this notice URL at ${added.provider}: ${added.noticeUrl}`,
    );
    return 0;
  }
  switch (command) {
    case "merchant create": {
      const m = await createMerchant({
        name: values.name ?? "",
        email: values.email ?? "",
        password: values.password ?? "",
        emailVerified: true,
      });
      const out = { merchantId: m.merchantId, publicKey: m.publicKey, secretKey: m.secretKey, webhookSecret: m.webhookSecret };
      print(
        out,
        `Merchant ${m.merchantId} created.\n  public key:     ${m.publicKey}\n  secret key:     ${m.secretKey}\n  webhook secret: ${m.webhookSecret}\nThe secrets are shown once; store them now.`,
      );
      return 0;
    }
    case "merchant list": {
      const list = await listMerchants();
      if (values.json) console.log(JSON.stringify(list));
      else if (list.length === 0) console.log("No merchants yet: npm run owo -- merchant create, or npm run seed for the demo.");
      else for (const m of list) console.log(`${m.merchantId}  ${m.name}  ${m.ownerEmail ?? "(no owner)"}`);
      return 0;
    }
    case "keys roll": {
      if (!values.merchant) throw new ApiError("S5", "--merchant <merchantId> is required");
      const mode = values.mode === "live" ? "live" : "test";
      const rolled = await rollSecretKey({ merchantId: values.merchant, mode }, Number(values["grace-seconds"]));
      print(
        { merchantId: values.merchant, publicKey: rolled.publicKey, secretKey: rolled.secretKey },
        `New secret key (shown once): ${rolled.secretKey}`,
      );
      return 0;
    }
    case "keys create": {
      if (!values.merchant) throw new ApiError("S5", "--merchant <merchantId> is required");
      if (values.mode !== "live")
        throw new ApiError("S5", "--mode live is required: test keys come with the merchant (keys roll renews them)");
      const keys = await createLiveKeys(values.merchant);
      print(
        keys,
        `Live keys created.\n  public key:     ${keys.publicKey}\n  secret key:     ${keys.secretKey}\n  webhook secret: ${keys.webhookSecret}\nThe secrets are shown once; store them now.`,
      );
      return 0;
    }
    case "provider fees": {
      if (!values.provider) throw new ApiError("S5", "--provider <providerId> is required");
      const set = await setFeeScheduleOf(values.provider, {
        percent: values.percent,
        flat: values.flat,
        flatWaivedUnder: values["flat-waived-under"],
        cap: values.cap,
      }).catch((err: unknown) => {
        // The operator typed flags, not the wire's field names: name the flag that was wrong.
        if (!(err instanceof ApiError)) throw err;
        const flag = (field: string) => (field === "flatWaivedUnder" ? "--flat-waived-under" : `--${field}`);
        throw new ApiError(
          err.code,
          err.message,
          err.errors.map((e) => ({ ...e, field: flag(e.field) })),
        );
      });
      const { percent, flat, flatWaivedUnder, cap } = set.fees;
      print(
        set,
        `Agreed fees on ${set.provider} account ${set.providerId}: ${percent}% + ${flat} from ${flatWaivedUnder}, ${cap === null ? "no cap" : `capped at ${cap}`}.`,
      );
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
      const list = await allMail({ to: values.to, limit });
      const human = list.length
        ? list
            .map((m) =>
              [
                `#${m.id} ${m.createdAt} ${m.status === "pending" ? "kept, not sent" : m.status} · to ${m.to}`,
                `Subject: ${m.subject}`,
                "",
                m.text.trimEnd(),
              ].join("\n"),
            )
            .join(`\n\n${"=".repeat(72)}\n\n`)
        : "No mail.";
      print({ mails: list }, human);
      return 0;
    }
    case "ledger verify": {
      if (values.mode !== "test" && values.mode !== "live") throw new ApiError("S5", "--mode must be test or live");
      const verdict = await verifyLedger({ merchantId: values.merchant, mode: values.mode, expectHead: values["expect-head"] });
      print(
        verdict,
        verdict.ok
          ? `The books hold: ${verdict.entries} entries, every chain and balance recomputed.`
          : `FAULT in ${verdict.fault.merchantId}/${verdict.fault.mode}${verdict.fault.entryId ? ` at ${verdict.fault.entryId}` : ""}: ${verdict.fault.reason}`,
      );
      return verdict.ok ? 0 : 1;
    }
    default:
      console.error(`Unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
}

run(process.argv.slice(2))
  .then(async (code) => {
    await closeDatabase();
    process.exit(code);
  })
  .catch((err: unknown) => {
    const message =
      err instanceof ApiError
        ? [err.message, ...err.errors.map((e) => `  ${e.field} ${e.message}`)].join("\n")
        : err instanceof UnusableDatabaseUrl || err instanceof BackupRefused
          ? err.message
          : String(err);
    console.error(`error: ${message}`);
    process.exit(1);
  });
