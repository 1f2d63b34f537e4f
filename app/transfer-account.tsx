// The account opened for a transfer, as the dashboard and the checkout both show it: bank, number to copy, name.
import { CopyButton } from "@/app/copy-button";

type Props = {
  account: { bankName: string; accountNumber: string; accountName: string };
  testId: string;
  /** Each page's own look for the list and for the account number's line. */
  className: string | undefined;
  numberClassName: string | undefined;
  /** Given once the payment has ended: the number reads greyed out, with nothing to copy. */
  spentClassName?: string | undefined;
};

export function TransferAccount({ account, testId, className, numberClassName, spentClassName }: Props) {
  return (
    <dl className={className}>
      <div>
        <dt>Bank</dt>
        <dd>{account.bankName}</dd>
      </div>
      <div>
        <dt>Account number</dt>
        <dd className={numberClassName}>
          <span className={spentClassName ? `mono ${spentClassName}` : "mono"} data-testid={testId}>
            {account.accountNumber}
          </span>
          {!spentClassName && <CopyButton value={account.accountNumber} />}
        </dd>
      </div>
      <div>
        <dt>Account name</dt>
        <dd>{account.accountName}</dd>
      </div>
    </dl>
  );
}
