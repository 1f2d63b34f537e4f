// The sandbox bank's issuing side: dial codes with the customer's bank's real short code, accounts at bank 000.
import { randomDigits } from "../../identifiers";
import { dialCode, sandboxHoldingBank } from "../banks";
import { nubanFor } from "../nuban";
import type { BankProvider } from "../provider";

/** Random candidates until one is free; with 10^8 and 10^9 spaces a retry is rare, a second rarer still. */
function firstFree(make: () => string, isTaken: (candidate: string) => boolean): string {
  for (let i = 0; i < 100; i++) {
    const candidate = make();
    if (!isTaken(candidate)) return candidate;
  }
  throw new Error("sandbox bank: no free number after 100 tries");
}

export const sandboxProvider: BankProvider = {
  name: "sandbox",
  issueDialCode(bank, isTaken) {
    if (!bank.ussdCode) throw new Error(`bank ${bank.bankCode} has no USSD service`);
    const shortCode = bank.ussdCode;
    const providerReference = firstFree(() => randomDigits(8), isTaken);
    return { providerReference, dialCode: dialCode(shortCode, providerReference) };
  },
  openAccount(isTaken) {
    const accountNumber = firstFree(() => nubanFor(sandboxHoldingBank.bankCode, randomDigits(9)), isTaken);
    return { accountNumber, bankCode: sandboxHoldingBank.bankCode, bankName: sandboxHoldingBank.bankName };
  },
};

