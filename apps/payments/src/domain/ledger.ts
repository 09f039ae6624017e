/**
 * The double-entry ledger (decision 0061). Every movement of money is one transaction of entries
 * that sum to zero in each currency: debits positive, credits negative. The ledger accounts:
 *
 * - processor_clearing: money the processor holds for the platform (an asset: debit-normal);
 * - merchant_balance: what the platform owes the account (a liability: credit-normal), the
 *   balance GET /v1/balance shows, available from each entry's available_at;
 * - platform_fees: the platform's revenue (credit-normal);
 * - payouts_in_transit: money on its way to the account's bank (debit-normal).
 */
export const LEDGER_ACCOUNTS = ['processor_clearing', 'merchant_balance', 'platform_fees', 'payouts_in_transit'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export type LedgerTransactionKind = 'charge' | 'fee' | 'refund' | 'payout' | 'payout_paid' | 'payout_failure';

export interface LedgerEntryDraft {
  ledger_account: LedgerAccount;
  /** Debit positive, credit negative; never zero. */
  amount: number;
  /** When it counts in the available balance. */
  available_at: Date;
}

export interface LedgerTransactionDraft {
  kind: LedgerTransactionKind;
  /** The payment, refund or payout it records. */
  source_id: string;
  currency: string;
  entries: LedgerEntryDraft[];
}

/** Throws unless the entries sum to zero: the same rule the database checks at commit. */
export function assertBalanced(transaction: LedgerTransactionDraft): LedgerTransactionDraft {
  const total = transaction.entries.reduce((sum, entry) => sum + entry.amount, 0);
  if (total !== 0 || transaction.entries.some((entry) => entry.amount === 0 || !Number.isSafeInteger(entry.amount))) {
    throw new Error(`ledger transaction ${transaction.kind} of ${transaction.source_id} does not balance: its entries sum to ${total}`);
  }
  return transaction;
}

/**
 * A succeeded payment in the ledger: the charge (the processor holds the money, the account is
 * owed it) and its fee (taken from what the account is owed), both available after settlement.
 */
export function paymentTransactions(payment: { id: string; amount: number; fee: number; currency: string }, availableAt: Date): LedgerTransactionDraft[] {
  const entry = (ledger_account: LedgerAccount, amount: number): LedgerEntryDraft => ({ ledger_account, amount, available_at: availableAt });
  const charge = { kind: 'charge' as const, source_id: payment.id, currency: payment.currency, entries: [entry('processor_clearing', payment.amount), entry('merchant_balance', -payment.amount)] };
  const fee = { kind: 'fee' as const, source_id: payment.id, currency: payment.currency, entries: [entry('merchant_balance', payment.fee), entry('platform_fees', -payment.fee)] };
  return [charge, ...(payment.fee > 0 ? [fee] : [])].map(assertBalanced);
}

/**
 * A payout's three possible transactions (decision 0063): created, it leaves the balance for
 * `payouts_in_transit` at once; paid, it leaves the processor's hands; failed, it returns to the
 * balance, available at once.
 */
export function payoutTransaction(payout: { id: string; amount: number; currency: string }, step: 'created' | 'paid' | 'failed', at: Date): LedgerTransactionDraft {
  const entry = (ledger_account: LedgerAccount, amount: number): LedgerEntryDraft => ({ ledger_account, amount, available_at: at });
  const [kind, entries] = {
    created: ['payout', [entry('merchant_balance', payout.amount), entry('payouts_in_transit', -payout.amount)]],
    paid: ['payout_paid', [entry('payouts_in_transit', payout.amount), entry('processor_clearing', -payout.amount)]],
    failed: ['payout_failure', [entry('payouts_in_transit', payout.amount), entry('merchant_balance', -payout.amount)]],
  }[step] as [LedgerTransactionKind, LedgerEntryDraft[]];
  return assertBalanced({ kind, source_id: payout.id, currency: payout.currency, entries });
}

/** A refund (decision 0064): what the account is owed goes down, and the processor gives the money back. The fee is not returned. */
export function refundTransaction(refund: { id: string; amount: number; currency: string }, at: Date): LedgerTransactionDraft {
  return assertBalanced({
    kind: 'refund',
    source_id: refund.id,
    currency: refund.currency,
    entries: [
      { ledger_account: 'merchant_balance', amount: refund.amount, available_at: at },
      { ledger_account: 'processor_clearing', amount: -refund.amount, available_at: at },
    ],
  });
}
