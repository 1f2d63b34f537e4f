// Merchant banks (API.md "Merchant banks"): the banks a merchant's customers can pay from in a mode, per channel.
import type { Mode } from "../../db/schema";
import { AMOUNT_LIMITS } from "../payments/initiate-schema";
import { formatKobo } from "../payments/money";
import { banks, type Bank } from "./banks";

export type MerchantBank = { bankCode: string; bankName: string; ussdCode: string | null; supportsUssd: boolean; status: "ACTIVE"; minimumAmount: string };

/**
 * Which banks' USSD the merchant can offer: in test mode the sandbox bank serves every bank with a USSD
 * service; in live mode only a connected provider's bank would, and none can be connected yet.
 */
function servesUssd(mode: Mode, bank: Bank): boolean {
  return mode === "test" && bank.ussdCode !== null;
}

export function merchantBanks(mode: Mode): MerchantBank[] {
  return banks.map((bank) => {
    const supportsUssd = servesUssd(mode, bank);
    return {
      bankCode: bank.bankCode,
      bankName: bank.bankName,
      ussdCode: supportsUssd ? bank.ussdCode : null,
      supportsUssd,
      status: "ACTIVE",
      // A bank is always reachable by TRANSFER, whose floor is the same as USSD's.
      minimumAmount: formatKobo(AMOUNT_LIMITS.TRANSFER.min),
    };
  });
}
