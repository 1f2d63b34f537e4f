// Bulk history for the bench: realistic payments over 90 days, written straight into a stopped server's database.
import type Database from "better-sqlite3";
import { sandboxHoldingBank, ussdBanks } from "../server/providers/banks";
import { nubanFor } from "../server/providers/nuban";
import type { PaymentStatus } from "../db/schema";
import { completeRow, INSERT_PAYMENT_SQL, sandboxIssue, type PaymentInsert } from "./payment-rows";

export type SeedMerchant = { id: string; name: string };

export type SeedPlan = {
  merchants: SeedMerchant[];
  count: number;
  /** Rows are numbered across calls; a later call starts where the last one ended so numbers never repeat. */
  firstIndex: number;
  now: number;
  publicUrl: string;
  ussdTtlSeconds: number;
  transferTtlSeconds: number;
};

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 90;
const FIRST = [
  "Ada",
  "Chinedu",
  "Ngozi",
  "Tunde",
  "Bola",
  "Emeka",
  "Funke",
  "Ibrahim",
  "Kemi",
  "Musa",
  "Ifeoma",
  "Segun",
  "Zainab",
  "Obinna",
  "Yetunde",
];
const LAST = ["Obi", "Okafor", "Adeyemi", "Bello", "Eze", "Balogun", "Okonkwo", "Abubakar", "Nwosu", "Adebayo", "Ibe", "Lawal"];

/** mulberry32: a fast seeded generator, so a plan always yields the same rows. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `i` → a number below 10^digits that looks random; a bijection (the multiplier is prime to 10),
 * so distinct row numbers give distinct references, accounts and dial codes.
 */
export function scrambled(i: number, digits: number): string {
  const modulus = 10n ** BigInt(digits);
  return ((BigInt(i) * 6_364_136_223_846_793n + 1_442_695_040_888_963n) % modulus).toString().padStart(digits, "0");
}

/** Zipf-like shares: the first merchant is the biggest (and is the one the bench signs in as). */
function merchantPicker(merchants: SeedMerchant[]): (r: number) => SeedMerchant {
  const weights = merchants.map((_, k) => 1 / (k + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  const upTo = weights.map((w) => (sum += w) / total);
  return (r) => {
    const chosen = merchants.find((_, k) => r < (upTo[k] ?? 1)) ?? merchants[merchants.length - 1];
    if (!chosen) throw new Error("seed: a plan needs at least one merchant");
    return chosen;
  };
}

function pick<T>(items: readonly T[], r: number): T {
  const item = items[Math.floor(r * items.length)];
  if (item === undefined) throw new Error("seed: nothing to pick from");
  return item;
}

/** Closed history for old payments, live ones only within their lifetime, as the sweeper would leave them. */
function outcome(type: "USSD" | "TRANSFER", open: boolean, r: number): { status: PaymentStatus; paidShare: number } {
  if (open)
    return r < 0.6
      ? { status: "PENDING", paidShare: 0 }
      : r < 0.7 && type === "TRANSFER"
        ? { status: "PARTIALLY_PAID", paidShare: 0.5 }
        : { status: "SUCCESSFUL", paidShare: 1 };
  if (r < 0.72) return { status: "SUCCESSFUL", paidShare: r < 0.02 ? 1.1 : 1 };
  if (r < 0.8 && type === "USSD") return { status: "FAILED", paidShare: 0 };
  if (r < 0.84 && type === "TRANSFER") return { status: "EXPIRED", paidShare: 0.5 };
  return { status: "EXPIRED", paidShare: 0 };
}

export function* seedRows(plan: SeedPlan): Generator<PaymentInsert> {
  const random = seededRandom(plan.firstIndex + 1);
  const merchantFor = merchantPicker(plan.merchants);
  const start = plan.now - HISTORY_DAYS * DAY_MS;
  for (let k = 0; k < plan.count; k++) {
    const i = plan.firstIndex + k;
    const merchant = merchantFor(random());
    const type = random() < 0.55 ? "USSD" : "TRANSFER";
    const ttlMs = (type === "USSD" ? plan.ussdTtlSeconds : plan.transferTtlSeconds) * 1000;
    // Spread in order over the 90 days, so ids grow with time as they do in a live database.
    const createdAt = Math.floor(start + ((k + random()) / plan.count) * HISTORY_DAYS * DAY_MS);
    const expiresAt = createdAt + ttlMs;
    const { status, paidShare } = outcome(type, expiresAt > plan.now, random());
    const amountKobo =
      Math.round(Math.exp(Math.log(100) + random() * (Math.log(type === "USSD" ? 900_000 : 2_000_000) - Math.log(100)))) * 100;
    const amountPaidKobo = Math.round(amountKobo * paidShare);
    const paidAt = status === "SUCCESSFUL" ? Math.min(createdAt + Math.floor(random() * ttlMs), plan.now) : null;
    const updatedAt = paidAt ?? (status === "EXPIRED" ? expiresAt : status === "FAILED" ? createdAt + 30_000 : createdAt);
    const first = pick(FIRST, random());
    const last = pick(LAST, random());
    const fullName = `${first} ${last}`;
    const email = `${first}.${last}${i % 997}@example.com`.toLowerCase();
    const mobileNumber = `080${String(Math.floor(random() * 1e8)).padStart(8, "0")}`;
    const paymentReference = `ord-${i.toString(36)}`;
    const linkingReference = `OWO${scrambled(i, 17)}`;
    const callbackUrl = `https://shop${plan.merchants.indexOf(merchant)}.example.ng/owo/callback`;
    const redirectUrl = `https://shop${plan.merchants.indexOf(merchant)}.example.ng/thanks`;
    const bank = type === "USSD" ? pick(ussdBanks, random()) : null;
    const { issued, answer } = sandboxIssue(
      { paymentReference, linkingReference, amountKobo, expiresAt, publicUrl: plan.publicUrl },
      bank
        ? { type: "USSD", bankCode: bank.bankCode, ussdCode: bank.ussdCode ?? "", providerReference: scrambled(i, 8) }
        : { type: "TRANSFER", accountNumber: nubanFor(sandboxHoldingBank.bankCode, scrambled(i, 9)), merchantName: merchant.name },
    );
    const source = pick(["rest", "rest", "rest", "rest", "rest", "rest", "trpc", "trpc", "dashboard", "dashboard"] as const, random());
    yield {
      merchantId: merchant.id,
      mode: "test",
      paymentReference,
      linkingReference,
      paymentType: type,
      status,
      amountKobo,
      amountPaidKobo,
      amountToRefundKobo: status === "SUCCESSFUL" && random() < 0.01 ? 50_000 : 0,
      currency: "NGN",
      country: "NG",
      fullName,
      mobileNumber,
      email,
      callbackUrl,
      redirectUrl,
      ...issued,
      // The shape of initiate.ts's fingerprint, so a seeded row weighs what a real one does.
      requestFingerprint: JSON.stringify([
        type,
        amountKobo,
        fullName,
        mobileNumber,
        email,
        "NGN",
        "NG",
        paymentReference,
        callbackUrl,
        redirectUrl,
        issued.bankCode ?? null,
      ]),
      answerJson: JSON.stringify(answer),
      source,
      linkId: null,
      // Timeline rows are not seeded; the sequence says how many a real payment would have.
      eventSequence: status === "PENDING" ? 1 : paidShare > 0 && status === "EXPIRED" ? 3 : 2,
      createdAt,
      updatedAt,
      expiresAt,
      paidAt,
    };
  }
}

/**
 * One transaction of prepared inserts. The server must be stopped: the journal goes to DELETE mode for
 * the load (a million rows through the WAL would double the writing) and back to WAL afterwards. A row whose
 * dial code or account the server already issued at random is skipped and replaced by a later-numbered one.
 */
export function seedPayments(sqlite: Database.Database, plan: SeedPlan): { nextIndex: number; referencesOfFirst: string[] } {
  sqlite.pragma("journal_mode = DELETE");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");
  const insert = sqlite.prepare(`${INSERT_PAYMENT_SQL} on conflict do nothing`);
  const first = plan.merchants[0]?.id;
  const referencesOfFirst: string[] = [];
  let nextIndex = plan.firstIndex;
  sqlite
    .transaction(() => {
      for (let wanted = plan.count; wanted > 0;) {
        const rows = seedRows({ ...plan, firstIndex: nextIndex, count: wanted });
        nextIndex += wanted;
        wanted = 0;
        for (const row of rows) {
          if (insert.run(completeRow(row)).changes === 0) wanted++;
          else if (row.merchantId === first) referencesOfFirst.push(row.paymentReference);
        }
      }
    })
    .immediate();
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  return { nextIndex, referencesOfFirst };
}
