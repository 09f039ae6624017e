/**
 * The sandbox's banks (decision 0063): a payout to a bank account ending as one of Stripe's
 * failing test account numbers fails; any other is paid.
 */
const FAILING_ACCOUNTS: Readonly<Record<string, { code: string; message: string }>> = {
  // 000111111116
  '1116': { code: 'no_account', message: 'The bank account does not exist.' },
  // 000111111113
  '1113': { code: 'account_closed', message: 'The bank account has been closed.' },
};

/** Why the sandbox's bank refuses a payout to the account ending `last4`; null when it pays it. */
export function sandboxPayoutFailure(last4: string): { code: string; message: string } | null {
  return Object.hasOwn(FAILING_ACCOUNTS, last4) ? FAILING_ACCOUNTS[last4]! : null;
}
