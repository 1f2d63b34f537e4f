// Merchant banks (API.md "Merchant banks"): the banks a merchant's customers can pay from in a mode, per channel.
import { AMOUNT_LIMITS } from "./initiate-schema";
import { formatKobo } from "../money";
import { connectedAccounts } from "../providers/accounts";
import { banks } from "../providers/banks";
import { connectorFor } from "../providers/registry";
import type { Scope } from "../merchants/scope";

export type MerchantBank = {
  bankCode: string;
  bankName: string;
  ussdCode: string | null;
  supportsUssd: boolean;
  status: "ACTIVE";
  minimumAmount: string;
};

/**
 * In test mode the sandbox bank serves every bank with a USSD service; in live mode a bank is served where one
 * of the merchant's connected providers serves USSD for it (the registry routes by the same `serves`).
 */
export async function merchantBanks({ merchantId, mode }: Scope): Promise<MerchantBank[]> {
  const connectors = mode === "test" ? [] : (await connectedAccounts(merchantId)).flatMap((a) => connectorFor(a.provider) ?? []);
  return banks.map((bank) => {
    const supportsUssd = bank.ussdCode !== null && (mode === "test" || connectors.some((c) => c.serves("USSD", bank)));
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
