// NUBAN: 9-digit serial + check digit computed over the 3-digit bank code and the serial (CBN rule).
const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

export function nubanCheckDigit(bankCode: string, serial: string): number {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{9}$/.test(serial)) throw new Error("bank code is 3 digits and serial 9");
  const digits = bankCode + serial;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

export function nubanFor(bankCode: string, serial: string): string {
  return serial + String(nubanCheckDigit(bankCode, serial));
}

export function isValidNuban(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false;
  return nubanCheckDigit(bankCode, accountNumber.slice(0, 9)) === Number(accountNumber[9]);
}

/**
 * Whether a customer's account number can be at a bank as a provider's bank list names it: ten digits, and the check
 * digit where the bank's code is a CBN 3-digit one. Providers list fintech and microfinance banks under longer codes
 * of their own (Paystack: OPay 999992, Moniepoint 50515), not the CBN institution codes their check digits are
 * computed over, so for those only the ten digits can be checked here; the provider checks the rest.
 */
export function isNubanAt(bankCode: string, accountNumber: string): boolean {
  if (!/^\d{10}$/.test(accountNumber)) return false;
  return /^\d{3}$/.test(bankCode) ? isValidNuban(bankCode, accountNumber) : true;
}
