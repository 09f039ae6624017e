import type { InternalClaims } from '@ticketing/auth';
import { callUnary } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import type { paymentsV1 } from '@ticketing/contracts';
import { paymentTransactions } from '../src/domain/ledger';
import { LedgerRepository } from '../src/repositories/ledger.repository';
import { AdvanceSandboxPayoutsUseCase } from '../src/usecases/advance-sandbox-payouts/advance-sandbox-payouts.usecase';
import { caller, intentCalls, startPaymentsHarness, tenantClaims, unbalancedLedgerTransactions, type PaymentsHarness } from './support/payments-harness';

const PAYS = '000123456789';
const NO_ACCOUNT = '000111111116';

/** Balance, payouts and the connect account (decision 0063) through payments' real gRPC server on real PostgreSQL, moved on by the sandbox. */
describe('balance, payouts and the connect account (real PostgreSQL, real gRPC, sandbox)', () => {
  let harness: PaymentsHarness;
  let calls: ReturnType<typeof intentCalls>;
  /** Every sandbox step at once, however recent. */
  let sandbox: AdvanceSandboxPayoutsUseCase;

  beforeAll(async () => {
    harness = await startPaymentsHarness();
    calls = intentCalls(harness);
    sandbox = new AdvanceSandboxPayoutsUseCase(harness.prisma, -1000);
  });

  afterEach(async () => {
    expect(await unbalancedLedgerTransactions(harness.prisma)).toEqual([]);
  });

  afterAll(() => harness.stop());

  const saveAccount = (claims: InternalClaims, fields: Partial<paymentsV1.SaveConnectAccountRequest>) =>
    callUnary(harness.connectAccounts.saveConnectAccount.bind(harness.connectAccounts), { business_name: '', country: '', default_currency: '', bank_account: undefined, ...fields }, claims, caller);
  const getAccount = (claims: InternalClaims) => callUnary(harness.connectAccounts.getConnectAccount.bind(harness.connectAccounts), {}, claims, caller);
  const payout = (claims: InternalClaims, amount: number, currency = 'EUR') => callUnary(harness.payouts.createPayout.bind(harness.payouts), { amount, currency, description: '' }, claims, caller);
  const listPayouts = (claims: InternalClaims) => callUnary(harness.payouts.listPayouts.bind(harness.payouts), { page: { limit: 100, starting_after: '' } }, claims, caller);
  const readBalance = (claims: InternalClaims) => callUnary(harness.balance.getBalance.bind(harness.balance), {}, claims, caller);
  /** An enabled connect account paying to `accountNumber`. */
  const enabledAccount = async (claims: InternalClaims, accountNumber = PAYS) => {
    await saveAccount(claims, { business_name: 'Harbour Lights', country: 'de', default_currency: 'eur', bank_account: { account_holder_name: 'Harbour Lights', account_number: accountNumber } });
    await sandbox.execute();
    return getAccount(claims);
  };
  /** A succeeded payment of `amount`: 2.9 % + 30 of it is the fee. */
  const paid = async (claims: InternalClaims, amount: number) => calls.confirm(claims, (await calls.create(claims, { amount })).id, 'pm_card_visa');
  const eventTypes = async (messageKey: string) =>
    (await harness.prisma.outboxMessage.findMany({ where: { message_key: messageKey }, orderBy: { position: 'asc' } })).map((row) => (row.payload as { type: string }).type);

  it('onboards a connect account: requirements due, then verification, then enabled by the sandbox', async () => {
    const claims = tenantClaims();
    await expect(getAccount(claims)).rejects.toMatchObject({ code: 'connect_account_missing', status: 404 });
    const started = await saveAccount(claims, { business_name: 'Harbour Lights', country: 'de' });
    expect(started).toMatchObject({ status: 'onboarding', requirements_due: ['default_currency', 'bank_account'], payouts_enabled: false, country: 'DE' });
    expect(started.id).toMatch(/^ca_/);
    const complete = await saveAccount(claims, { default_currency: 'eur', bank_account: { account_holder_name: 'H. Lights', account_number: 'DE89 3704 0044 0532 0130 00' } });
    expect(complete).toMatchObject({ status: 'pending_verification', requirements_due: [], business_name: 'Harbour Lights', bank_account: { account_holder_name: 'H. Lights', last4: '3000' } });
    expect(JSON.stringify(await harness.prisma.connectAccount.findFirst({ where: { id: started.id } }))).not.toContain('DE89370400440532013000');
    await sandbox.execute();
    expect(await getAccount(claims)).toMatchObject({ status: 'enabled', payouts_enabled: true });
    expect(await eventTypes(started.id)).toEqual(['connect_account.updated', 'connect_account.updated', 'connect_account.updated']);
    // A new bank account is verified again.
    expect(await saveAccount(claims, { bank_account: { account_holder_name: 'H. Lights', account_number: PAYS } })).toMatchObject({ status: 'pending_verification' });
    expect(await saveAccount(claims, { business_name: 'Harbour Lights GmbH' })).toMatchObject({ status: 'pending_verification' });
  });

  it('refuses bad connect-account details with the field at fault', async () => {
    const claims = tenantClaims();
    await expect(saveAccount(claims, { country: 'XX' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'country' });
    await expect(saveAccount(claims, { default_currency: 'EURO' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'default_currency' });
    await expect(saveAccount(claims, { bank_account: { account_holder_name: 'A', account_number: '12' } })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'bank_account.account_number' });
    await expect(getAccount(claims)).rejects.toMatchObject({ code: 'connect_account_missing' });
  });

  it('shows as available the net of settled payments, and as pending what settles later', async () => {
    const claims = tenantClaims();
    await paid(claims, 10_000);
    await paid(claims, 5_000);
    const tenant = { accountId: claims.tenant!.account_id, mode: claims.tenant!.mode };
    await harness.prisma.$transaction((tx) => new LedgerRepository(tx).record(tenant, paymentTransactions({ id: newId('pay'), amount: 2_000, fee: 88, currency: 'USD' }, new Date(Date.now() + 86_400_000))));
    expect(await readBalance(claims)).toEqual({
      livemode: false,
      available: [{ amount: 0, currency: 'USD' }, { amount: 9680 + 4825, currency: 'EUR' }].sort((a, b) => a.currency.localeCompare(b.currency)),
      pending: [{ amount: 0, currency: 'EUR' }, { amount: 1912, currency: 'USD' }],
    });
  });

  it('pays out at most the available balance, only to an enabled account, and walks the payout to paid', async () => {
    const claims = tenantClaims();
    await paid(claims, 10_000);
    await expect(payout(claims, 1000)).rejects.toMatchObject({ code: 'payouts_not_enabled', status: 409 });
    await enabledAccount(claims);
    await expect(payout(claims, 9681)).rejects.toMatchObject({ code: 'balance_insufficient', param: 'amount' });
    await expect(payout(claims, 100, 'USD')).rejects.toMatchObject({ code: 'balance_insufficient' });
    await expect(payout(claims, 0)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount' });

    const created = await payout(claims, 9000);
    expect(created).toMatchObject({ amount: 9000, currency: 'EUR', status: 'pending', destination_last4: '6789', failure_code: '' });
    expect((await readBalance(claims)).available).toEqual([{ amount: 680, currency: 'EUR' }]);
    await sandbox.execute();
    expect((await listPayouts(claims)).data).toMatchObject([{ id: created.id, status: 'in_transit' }]);
    await sandbox.execute();
    expect((await listPayouts(claims)).data).toMatchObject([{ id: created.id, status: 'paid' }]);
    expect((await readBalance(claims)).available).toEqual([{ amount: 680, currency: 'EUR' }]);
    expect(await eventTypes(created.id)).toEqual(['payout.created', 'payout.updated', 'payout.paid']);
  });

  it('returns a failed payout’s money to the available balance', async () => {
    const claims = tenantClaims();
    await paid(claims, 10_000);
    await enabledAccount(claims, NO_ACCOUNT);
    const created = await payout(claims, 5000);
    await sandbox.execute();
    await sandbox.execute();
    expect((await listPayouts(claims)).data).toMatchObject([{ id: created.id, status: 'failed', failure_code: 'no_account', failure_message: 'The bank account does not exist.' }]);
    expect((await readBalance(claims)).available).toEqual([{ amount: 9680, currency: 'EUR' }]);
    expect(await eventTypes(created.id)).toEqual(['payout.created', 'payout.updated', 'payout.failed']);
  });

  it('never pays out more than is available, however many payouts are asked for at once', async () => {
    const claims = tenantClaims();
    await paid(claims, 10_000);
    await enabledAccount(claims);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => payout(claims, 3000)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    expect((await readBalance(claims)).available).toEqual([{ amount: 680, currency: 'EUR' }]);
  });

  it('refuses live connect accounts and payouts while no live processor is configured', async () => {
    const claims = tenantClaims('live');
    await expect(saveAccount(claims, { business_name: 'Live Co' })).rejects.toMatchObject({ code: 'live_payments_unavailable' });
    await expect(payout(claims, 100)).rejects.toMatchObject({ code: 'live_payments_unavailable' });
  });
});
