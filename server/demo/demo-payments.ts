// Sample payments for the demo merchant, made through the same service functions as real ones.
// History is written with past times and `publish: false`: the timeline is real, but no callback is queued.
import { randomBytes } from "node:crypto";
import { DAY_MS, dayStartOf } from "../payments/calendar";
import { initiatePayment } from "../payments/initiate";
import { initiatePaymentInput } from "../payments/initiate-schema";
import { expireIfOverdue } from "../payments/lifecycle";
import { applyBankNotice } from "../payments/sandbox-notices";
import type { NoticeTarget } from "../providers/connector";
import { findPayment } from "../payments/lookup";
import { clock } from "../clock";

const DAYS = 28;
const MINUTE = 60_000;
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

type Issued = { reference: string; target: NoticeTarget; amountKobo: number };

async function notice(issued: Issued, kind: "credit" | "decline", amountKobo: number, at: number, senderName: string) {
  await applyBankNotice(
    {
      provider: "sandbox",
      transactionId: `seed_${randomBytes(8).toString("hex")}`,
      kind,
      amountKobo,
      senderName,
      bankTime: at,
      target: issued.target,
    },
    at,
    { publish: false },
  );
}

async function expireAtDeadline(merchantId: string, reference: string) {
  const p = await findPayment({ merchantId, mode: "test" }, reference);
  await expireIfOverdue(p, p.expiresAt, { publish: false });
}

export async function seedDemoPayments(merchantId: string, now = clock.now()): Promise<number> {
  const random = randomFrom(20261121);
  const firstDay = dayStartOf(now) - (DAYS - 1) * DAY_MS;
  let count = 0;

  const issue = async (
    channel: "USSD" | "TRANSFER",
    at: number,
    amount: string,
    customer: readonly [string, string],
    n: number,
  ): Promise<Issued> => {
    const [fullName, mobileNumber] = customer;
    const day = new Date(at).toISOString().slice(0, 10).replaceAll("-", "");
    const req = initiatePaymentInput.parse({
      paymentType: channel,
      amount,
      fullName,
      mobileNumber,
      email: `${fullName.split(" ")[0]?.toLowerCase()}@example.com`,
      currency: "NGN",
      country: "NG",
      paymentReference: `demo-${day}-${String(n).padStart(3, "0")}`,
      callbackUrl: "https://demo-store.example/owo/callback",
      redirectUrl: "https://demo-store.example/thanks",
      ...(channel === "USSD" ? { bankCode: random.pick(USSD_BANKS) } : {}),
    });
    const answer = JSON.parse((await initiatePayment(req, { merchantId, mode: "test", source: "seed", now: at })).paymentsJson) as Record<
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

  for (let d = 0; d < DAYS; d++) {
    const dayStart = firstDay + d * DAY_MS;
    // Busier towards the weekend and month end, like a real shop.
    const perDay = 6 + Math.floor(random.next() * 7) + (new Date(dayStart + 2 * 3_600_000).getUTCDay() >= 5 ? 4 : 0);
    for (let n = 1; n <= perDay; n++) {
      // 07:00 to 22:00 Lagos time; today only up to an hour ago, so every sample has ended.
      const at = dayStart + 7 * 3_600_000 + Math.floor(random.next() * 15 * 3_600_000);
      if (at > now - 60 * MINUTE) continue;
      const channel = random.next() < 0.55 ? "USSD" : "TRANSFER";
      const customer = random.pick(CUSTOMERS);
      const issued = await issue(channel, at, random.pick(AMOUNTS), customer, n);
      const paidAt = at + Math.floor(1 + random.next() * 6) * MINUTE;
      const owed = issued.amountKobo;
      const half = Math.floor(owed / 2);
      switch (outcomeFor(channel, random.next())) {
        case "paid":
          await notice(issued, "credit", owed, paidAt, customer[0]);
          break;
        case "declined":
          await notice(issued, "decline", 0, paidAt, customer[0]);
          break;
        case "partial-then-paid":
          await notice(issued, "credit", half, paidAt, customer[0]);
          await notice(issued, "credit", owed - half, paidAt + 4 * MINUTE, customer[0]);
          break;
        case "partial-then-expired":
          await notice(issued, "credit", half, paidAt, customer[0]);
          await expireAtDeadline(merchantId, issued.reference);
          break;
        case "overpaid":
          await notice(issued, "credit", owed + 50_000, paidAt, customer[0]);
          break;
        case "paid-after-expiry":
          await expireAtDeadline(merchantId, issued.reference);
          await notice(issued, "credit", owed, at + 2 * 60 * MINUTE, customer[0]);
          break;
        case "expired":
          await expireAtDeadline(merchantId, issued.reference);
          break;
      }
    }
  }

  // Two payments still waiting for their customers, so the demo shows live ones too.
  const live = now - 2 * MINUTE;
  await issue("USSD", live, "6500", CUSTOMERS[0], 901);
  const partial = await issue("TRANSFER", live, "42000", CUSTOMERS[1], 902);
  await notice(partial, "credit", 20_000_00, live + MINUTE, CUSTOMERS[1][0]);
  return count;
}
