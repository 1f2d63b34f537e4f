// The operator CLI (API.md "Operator CLI"): merchant create, keys roll / create, provider add / fees, user reset-password, mail list,
// db copy, db backup / restore, ledger verify.
import { parseArgs } from "node:util";
import { closeDatabase, migrateDatabase } from "../../db/client";
import { copySqliteToPostgres } from "../../db/copy";
import { ApiError } from "../api-error";
import { createLiveKeys, rollSecretKey } from "../auth/api-keys";
import { noticeUrlWarning } from "../providers/accounts";
import { connectTestedProvider } from "../providers/registry";
import { allMail } from "../mail/outbox";
import { createMerchant } from "../merchants/create-merchant";
import { listMerchants } from "../merchants/operator-list";
import { resetPassword } from "../users/users";
import { restoreBackup, takeBackup } from "../backups/backup";
import { verifyLedger } from "../books/verify";
import { setFeeScheduleOf } from "../books/fee-schedules";
import { reportFailure } from "./failure";

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
  npm run owo -- ledger verify [--merchant <merchantId> [--expect-head <sequence>:<hash> [--mode test|live]]] [--json]
      Recomputes every ledger chain and balance (or one merchant's); exit 1 at the first fault. --expect-head takes a head
      kept earlier (balances' ledgerHead) and checks the chain still holds it: its entry at that sequence still has that
      hash. A chain that grew since passes; one rewritten up to that entry, or ending before it, is a fault. 0:<64 zeros>,
      the head of books with no entry, is in every chain. --mode names the chain the head was kept from; left out, the
      merchant's chains are searched (a head's hash belongs to one mode only).

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

const OPTIONS = {
  name: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  merchant: { type: "string" },
  // No default: keys roll takes test, keys create wants live said, ledger verify searches both chains.
  mode: { type: "string" },
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
} as const;

/**
 * `--percent -1` as `--percent=-1`: parseArgs takes a value that starts with "-" for a flag and refuses the pair, where
 * the flag's own check would say what it must be. Only a negative number is joined so; anything else stays as typed.
 */
function negativeValuesJoined(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const next = argv[i + 1];
    const name = arg.startsWith("--") ? arg.slice(2) : "";
    const takesValue = Object.entries(OPTIONS).some(([n, o]) => n === name && o.type === "string");
    if (arg === "--") return [...out, ...argv.slice(i)];
    if (takesValue && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: negativeValuesJoined(argv), allowPositionals: true, options: OPTIONS });
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
      if (!values.provider) throw new ApiError("S5", "--provider <prv_…> is required: the provider account whose fees these are");
      const set = await setFeeScheduleOf(values.provider, {
        percent: values.percent,
        flat: values.flat,
        flatWaivedUnder: values["flat-waived-under"],
        cap: values.cap,
      }).catch((err: unknown) => {
        // The operator typed flags, not the wire's field names: one line naming each flag that was wrong, as typed
        // ("--percent must be …"), rather than the wire's "Invalid/Missing parameters = percent".
        if (!(err instanceof ApiError) || err.errors.length === 0) throw err;
        const flag = (field: string) => (field === "flatWaivedUnder" ? "--flat-waived-under" : `--${field}`);
        throw new ApiError(err.code, err.errors.map((e) => `${flag(e.field)} ${e.message}`).join("; "));
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
      const { mode } = values;
      if (mode !== undefined && mode !== "test" && mode !== "live") throw new ApiError("S5", "--mode must be test or live");
      // Every chain is verified whatever the mode: --mode only says where a kept head belongs.
      if (mode !== undefined && values["expect-head"] === undefined)
        throw new ApiError("S5", "--mode goes with --expect-head: it names the chain the kept head belongs to");
      const verdict = await verifyLedger({ merchantId: values.merchant, mode, expectHead: values["expect-head"] });
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
    reportFailure(err, process.argv.slice(2).includes("--json"));
    process.exit(1);
  });
