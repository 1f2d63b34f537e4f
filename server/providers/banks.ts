// Nigerian banks (CBN code, USSD short code) from banks.json, the one source for pickers, /banks and dial codes.
import data from "./banks.json";

export type Bank = { bankCode: string; bankName: string; ussdCode: string | null; nipCode: string };

export const banks: readonly Bank[] = data.banks;
const byCode = new Map(banks.map((b) => [b.bankCode, b]));

export const sandboxHoldingBank = {
  bankCode: data.sandboxHoldingBank.bankCode,
  bankName: data.sandboxHoldingBank.bankName,
} as const;

export function bankByCode(code: string): Bank | undefined {
  return byCode.get(code);
}

export const ussdBanks: readonly Bank[] = banks.filter((b) => b.ussdCode !== null);

/** `*737#` + `48213906` → `*737*000*48213906#`. */
export function dialCode(ussdShortCode: string, providerReference: string): string {
  return `${ussdShortCode.replace(/#$/, "")}*000*${providerReference}#`;
}
