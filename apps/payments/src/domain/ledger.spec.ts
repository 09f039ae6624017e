import { assertBalanced, paymentTransactions } from './ledger';

describe('paymentTransactions', () => {
  const at = new Date('2027-01-07T00:00:00Z');

  it('records the charge and its fee as two balanced transactions, available from the settlement instant', () => {
    const [charge, fee] = paymentTransactions({ id: 'pay_1', amount: 10_000, fee: 320, currency: 'EUR' }, at);
    expect(charge).toEqual({
      kind: 'charge',
      source_id: 'pay_1',
      currency: 'EUR',
      entries: [
        { ledger_account: 'processor_clearing', amount: 10_000, available_at: at },
        { ledger_account: 'merchant_balance', amount: -10_000, available_at: at },
      ],
    });
    expect(fee!.entries.map(({ ledger_account, amount }) => [ledger_account, amount])).toEqual([
      ['merchant_balance', 320],
      ['platform_fees', -320],
    ]);
  });

  it('records no fee transaction for a payment without a fee', () => {
    expect(paymentTransactions({ id: 'pay_1', amount: 500, fee: 0, currency: 'EUR' }, at).map((transaction) => transaction.kind)).toEqual(['charge']);
  });
});

describe('assertBalanced', () => {
  const entry = (amount: number) => ({ ledger_account: 'merchant_balance' as const, amount, available_at: new Date() });

  it('refuses entries that do not sum to zero, or an entry of zero', () => {
    expect(() => assertBalanced({ kind: 'refund', source_id: 're_1', currency: 'EUR', entries: [entry(100), entry(-99)] })).toThrow(/sum to 1/);
    expect(() => assertBalanced({ kind: 'refund', source_id: 're_1', currency: 'EUR', entries: [entry(0), entry(0)] })).toThrow(/does not balance/);
  });
});
