// A posting as an accountant reads it: the books keep one signed amount (debits positive, credits negative, API.md
// "Ledger and balances"); people read it in a Debit or a Credit column, as the payment page's ledger shows it.

export type DebitCredit = { account: string; debit: string | null; credit: string | null };

/** {"account":"sales","amount":"-20000.00"} → {account:"sales", debit:null, credit:"20000.00"}; a zero is on neither side. */
export function debitOrCredit({ account, amount }: { account: string; amount: string }): DebitCredit {
  if (amount.startsWith("-")) return { account, debit: null, credit: amount.slice(1) };
  return { account, debit: amount === "0.00" ? null : amount, credit: null };
}
