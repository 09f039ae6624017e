import { newId } from '@ticketing/ids';
import { paymentTransactions } from '../src/domain/ledger';
import { LedgerRepository } from '../src/repositories/ledger.repository';
import { startPaymentsHarness, tenantClaims, type PaymentsHarness } from './support/payments-harness';

/** The database keeps the ledger double-entry and append-only, whatever code writes to it. */
describe('the ledger (real PostgreSQL)', () => {
  let harness: PaymentsHarness;

  beforeAll(async () => {
    harness = await startPaymentsHarness();
  });

  afterAll(() => harness.stop());

  const tenant = () => {
    const claims = tenantClaims();
    return { accountId: claims.tenant!.account_id, mode: claims.tenant!.mode };
  };

  it('refuses at commit a transaction whose entries do not sum to zero, and keeps nothing of it', async () => {
    const owner = tenant();
    const [charge] = paymentTransactions({ id: newId('pay'), amount: 1000, fee: 0, currency: 'EUR' }, new Date());
    const lopsided = { ...charge!, entries: [charge!.entries[0]!, { ...charge!.entries[1]!, amount: -999 }] };
    await expect(harness.prisma.$transaction((tx) => new LedgerRepository(tx).record(owner, [lopsided]))).rejects.toThrow(/does not balance: EUR 1/);
    expect(await harness.prisma.ledgerTransaction.count({ where: { account_id: owner.accountId } })).toBe(0);
  });

  it('records a payment once, and never changes or removes an entry', async () => {
    const owner = tenant();
    const payment = { id: newId('pay'), amount: 1000, fee: 59, currency: 'EUR' };
    await harness.prisma.$transaction((tx) => new LedgerRepository(tx).record(owner, paymentTransactions(payment, new Date())));
    await expect(harness.prisma.$transaction((tx) => new LedgerRepository(tx).record(owner, paymentTransactions(payment, new Date())))).rejects.toThrow();
    await expect(harness.prisma.$executeRaw`UPDATE ledger_entries SET amount = amount * 2 WHERE account_id = ${owner.accountId}`).rejects.toThrow(/never changed or removed/);
    await expect(harness.prisma.$executeRaw`DELETE FROM ledger_entries WHERE account_id = ${owner.accountId}`).rejects.toThrow(/never changed or removed/);
    expect(await harness.prisma.ledgerEntry.count({ where: { account_id: owner.accountId } })).toBe(4);
  });
});
