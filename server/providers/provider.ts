// Where dial codes and accounts come from. The sandbox bank implements this; a live bank would too.
import type { Mode } from "../../db/schema";
import { ApiError } from "../api-error";
import { sandboxProvider } from "./sandbox/issuer";
import type { Bank } from "./banks";

export type IssuedDialCode = { providerReference: string; dialCode: string };
export type OpenedAccount = { accountNumber: string; bankCode: string; bankName: string };

export interface BankProvider {
  readonly name: string;
  /** `isTaken` answers inside the caller's write transaction, so a candidate is checked and used atomically. */
  issueDialCode(bank: Bank, isTaken: (providerReference: string) => boolean): IssuedDialCode;
  openAccount(isTaken: (accountNumber: string) => boolean): OpenedAccount;
}

export function providerFor(mode: Mode): BankProvider {
  if (mode === "test") return sandboxProvider;
  throw new ApiError("S3", "No live bank provider is configured on this Owo; use test keys");
}
