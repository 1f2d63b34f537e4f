// Sample payments for the demo merchant, made through the same service functions as real ones, and the sandbox bank's
// nightly settlements of them. History is written with past times and `publish: false`: the timeline is real, but no
// callback is queued. Every step is taken in time order (a Timeline), so the ledger's sequence and times agree.
import { randomBytes } from "node:crypto";
import { DAY_MS, dayStartOf } from "../payments/calendar";
import { initiatePayment } from "../payments/initiate";
import { initiatePaymentInput } from "../payments/initiate-schema";
import { expireIfOverdue } from "../payments/lifecycle";
import { applyBankNotice } from "../payments/sandbox-notices";
import type { BankNotice, NoticeTarget } from "../providers/connector";
import { recordToldCredit, sandboxFeeKobo } from "../providers/sandbox/books";
import { settleSandboxNight } from "../settlements/sandbox";
import { findPayment } from "../payments/lookup";
import { clock } from "../clock";

const DAYS = 28;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CUSTOMERS = [
  ["Adaeze Okafor", "08031234567"],
  ["Tunde Bakare", "08029876543"],
  ["Ngozi Eze", "07061239876"],
  ["Ibrahim Musa", "09012345678"],
  ["Funke Adeyemi", "08105556677"],
  ["Chinedu Nwosu", "08134445566"],
  ["Aisha Bello", "07039998877"],
  ["Emeka Obi", "08067778899"],
  ["Yetunde Alabi", "09087654321"],
  ["Segun Ogundipe", "08023334455"],
  ["Halima Sani", "07012223344"],
  ["Kelechi Umeh", "08145556677"],
] as const;
const USSD_BANKS = ["058", "044", "057", "033", "011", "232", "214", "050"];
const AMOUNTS = ["1500", "2500", "3200", "4999.99", "7500", "12000", "18500", "25000", "45000", "98000", "150000", "320000"];

type Outcome = "paid" | "declined" | "expired" | "partial-then-paid" | "partial-then-expired" | "overpaid" | "paid-after-expiry";

/** Deterministic, so every demo shows the same history and screenshots compare. */
function randomFrom(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick };
}

function outcomeFor(channel: "USSD" | "TRANSFER", roll: number): Outcome {
  if (channel === "USSD") return roll < 0.74 ? "paid" : roll < 0.88 ? "declined" : "expired";
  if (roll < 0.66) return "paid";
  if (roll < 0.74) return "partial-then-paid";
  if (roll < 0.8) return "partial-then-expired";
  if (roll < 0.84) return "overpaid";
  if (roll < 0.87) return "paid-after-expiry";
  return "expired";
}

type Sample = {
  at: number;
  channel: "USSD" | "TRANSFER";
  customer: readonly [string, string];
  amount: string;
  bankCode: string | undefined;
  paidAt: number;
  outcome: Outcome;
};

/** When a sample's last money arrives: a late payment's comes two hours after it was issued, long past its expiry. */
const lateAt = (s: Sample) => s.at + 2 * HOUR;

/**
 * The day's samples, in time order; today's only those that have ended by now. Drawn in the order the seed has always
 * drawn them, so the same days hold the same payments as before they were put in time order.
 */
function sampleDay(random: ReturnType<typeof randomFrom>, dayStart: number, now: number): Sample[] {
  // Busier towards the weekend and month end, like a real shop.
  const perDay = 6 + Math.floor(random.next() * 7) + (new Date(dayStart + 2 * HOUR).getUTCDay() >= 5 ? 4 : 0);
  const samples: Sample[] = [];
  for (let n = 1; n <= perDay; n++) {
    // 07:00 to 22:00 Lagos time; today only up to an hour ago, so every sample has ended.
    const at = dayStart + 7 * HOUR + Math.floor(random.next() * 15 * HOUR);
    if (at > now - 60 * MINUTE) continue;
    const channel = random.next() < 0.55 ? "USSD" : "TRANSFER";
    const customer = random.pick(CUSTOMERS);
    const amount = random.pick(AMOUNTS);
    const bankCode = channel === "USSD" ? random.pick(USSD_BANKS) : undefined;
    const paidAt = at + Math.floor(1 + random.next() * 6) * MINUTE;
    const sample = { at, channel, customer, amount, bankCode, paidAt, outcome: outcomeFor(channel, random.next()) } as const;
    // A late payment still to come would be money from the future, after the demo's live payments.
    if (sample.outcome === "paid-after-expiry" && lateAt(sample) > now - 5 * MINUTE) continue;
    samples.push(sample);
  }
  return samples.sort((a, b) => a.at - b.at);
}

/** Steps to take in time order; a step may add later ones (an expiry once the payment's deadline is known). */
class Timeline {
  private readonly steps: { at: number; take: () => Promise<void> }[] = [];

  /** After every step already due at `at`, so steps at one time keep the order they were added in. */
  add(at: number, take: () => Promise<void>): void {
    const i = this.steps.findIndex((s) => s.at > at);
    this.steps.splice(i === -1 ? this.steps.length : i, 0, { at, take });
  }

  async play(): Promise<void> {
    for (let step = this.steps.shift(); step; step = this.steps.shift()) await step.take();
  }
}

type Issued = { reference: string; target: NoticeTarget; amountKobo: number };

/**
 * A notice of the sandbox bank, taken as receiveSandboxNotice takes one that came over HTTP: the bank books a credit
 * it told Owo of before Owo applies it, so its own books (what it settles from) hold every seeded credit. Applied
 * without the callback the HTTP door would queue, as history.
 */
async function notice(issued: Issued, kind: "credit" | "decline", amountKobo: number, at: number, senderName: string) {
  const told: BankNotice = {
    provider: "sandbox",
    transactionId: `seed_${randomBytes(8).toString("hex")}`,
    kind,
    amountKobo,
    feeKobo: kind === "credit" ? sandboxFeeKobo(amountKobo) : 0,
    senderName,
    bankTime: at,
    target: issued.target,
  };
  if (kind === "credit") await recordToldCredit(told, at);
  await applyBankNotice(told, at, { publish: false });
}

async function deadlineOf(merchantId: string, reference: string): Promise<number> {
  return (await findPayment({ merchantId, mode: "test" }, reference)).expiresAt;
}

async function expireAtDeadline(merchantId: string, reference: string) {
  const p = await findPayment({ merchantId, mode: "test" }, reference);
  await expireIfOverdue(p, p.expiresAt, { publish: false });
}

export async function seedDemoPayments(merchantId: string, now = clock.now()): Promise<number> {
  const random = randomFrom(20261121);
  const firstDay = dayStartOf(now) - (DAYS - 1) * DAY_MS;
  const timeline = new Timeline();
  let count = 0;

  const issue = async (s: Pick<Sample, "at" | "channel" | "customer" | "amount" | "bankCode">, n: number): Promise<Issued> => {
    const [fullName, mobileNumber] = s.customer;
    const day = new Date(s.at).toISOString().slice(0, 10).replaceAll("-", "");
    const req = initiatePaymentInput.parse({
      paymentType: s.channel,
      amount: s.amount,
      fullName,
      mobileNumber,
      email: `${fullName.split(" ")[0]?.toLowerCase()}@example.com`,
      currency: "NGN",
      country: "NG",
      paymentReference: `demo-${day}-${String(n).padStart(3, "0")}`,
      callbackUrl: "https://demo-store.example/owo/callback",
      redirectUrl: "https://demo-store.example/thanks",
      ...(s.bankCode === undefined ? {} : { bankCode: s.bankCode }),
    });
    const answer = JSON.parse((await initiatePayment(req, { merchantId, mode: "test", source: "seed", now: s.at })).paymentsJson) as Record<
      string,
      string
    >;
    count++;
    const target: NoticeTarget =
      req.paymentType === "USSD"
        ? { bankCode: req.bankCode, providerReference: answer.providerreference ?? "" }
        : { accountNumber: answer.accountNumber ?? "" };
    return { reference: req.paymentReference, target, amountKobo: req.amount };
  };

  /** Issues the sample at its time and lays out what its customer and the bank do after. */
  const play = (s: Sample, n: number) => async () => {
    const issued = await issue(s, n);
    const owed = issued.amountKobo;
    const half = Math.floor(owed / 2);
    const [name] = s.customer;
    const pay = (amountKobo: number, at: number) => timeline.add(at, () => notice(issued, "credit", amountKobo, at, name));
    const expire = async () =>
      timeline.add(await deadlineOf(merchantId, issued.reference), () => expireAtDeadline(merchantId, issued.reference));
    switch (s.outcome) {
      case "paid":
        return pay(owed, s.paidAt);
      case "declined":
        return timeline.add(s.paidAt, () => notice(issued, "decline", 0, s.paidAt, name));
      case "partial-then-paid":
        pay(half, s.paidAt);
        return pay(owed - half, s.paidAt + 4 * MINUTE);
      case "partial-then-expired":
        pay(half, s.paidAt);
        return expire();
      case "overpaid":
        return pay(owed + 50_000, s.paidAt);
      case "paid-after-expiry":
        await expire();
        return pay(owed, lateAt(s));
      case "expired":
        return expire();
    }
  };

  for (let d = 0; d < DAYS; d++) {
    const dayStart = firstDay + d * DAY_MS;
    // The sandbox bank's 00:00 run ending the day before, by the nightly job's own function.
    if (d > 0) timeline.add(dayStart, async () => void (await settleSandboxNight(merchantId, dayStart)));
    // Numbered in the day's time order, so the day's first payment is its 001.
    sampleDay(random, dayStart, now).forEach((s, i) => timeline.add(s.at, play(s, i + 1)));
  }

  // Two payments still waiting for their customers, so the demo shows live ones too.
  const live = now - 2 * MINUTE;
  const waiting = { at: live, customer: CUSTOMERS[0], amount: "6500", bankCode: random.pick(USSD_BANKS) } as const;
  timeline.add(live, async () => void (await issue({ ...waiting, channel: "USSD" }, 901)));
  timeline.add(live, async () => {
    const partial = await issue({ at: live, channel: "TRANSFER", customer: CUSTOMERS[1], amount: "42000", bankCode: undefined }, 902);
    timeline.add(live + MINUTE, () => notice(partial, "credit", 20_000_00, live + MINUTE, CUSTOMERS[1][0]));
  });
  await timeline.play();
  return count;
}
