// Which payment a number of the sandbox bank's was issued for: the account it opened, or the dial code's bank and
// reference. Owo's payments table is the bank's record of what it issued (connector.ts draws the numbers).
import { and, eq, isNull } from "drizzle-orm";
import { payments } from "../../../db/schema";
import type { NoticeTarget } from "../connector";

/** A live payment (provider account set) is out of the bank's reach, and so is a reservation still being issued: no
 * one was told its number yet. */
export function issuedFor(target: NoticeTarget) {
  const number =
    "accountNumber" in target
      ? eq(payments.accountNumber, target.accountNumber)
      : and(eq(payments.bankCode, target.bankCode), eq(payments.providerReference, target.providerReference));
  return and(number, isNull(payments.providerAccountId), isNull(payments.reservedAt));
}
