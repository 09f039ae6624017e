import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { restart } from './support/processes';

/** Balance, payouts and the connect account through the gateway (decision 0063), moved on by the sandbox. */
describe('balance, payouts and the connect account through the gateway', () => {
  // Payments settle at once and the sandbox takes a fifth of a second a step, so a test sees a payout through.
  beforeAll(() => restart('payments', { SETTLEMENT_DELAY_MS: '0', SANDBOX_PAYOUT_STEP_MS: '200' }));
  afterAll(async () => {
    await restart('payments');
    expect(await queryServiceDatabase('payments', 'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id, currency HAVING SUM(amount) <> 0')).toEqual([]);
  });

  const settled = async (api: ReturnType<typeof as>, amount: number) => {
    const intent = await api.post('/v1/payment_intents', { amount, currency: 'EUR', payment_method: 'pm_card_visa' });
    expect((await api.post(`/v1/payment_intents/${intent.body.id}/confirm`)).body.status).toBe('succeeded');
  };
  const payoutStatus = async (api: ReturnType<typeof as>, id: string, status: string) =>
    waitFor(`payout ${id} ${status}`, async () => {
      const listed = await api.get('/v1/payouts');
      const found = listed.body.data.find((payout: { id: string }) => payout.id === id);
      return found?.status === status ? found : undefined;
    });

  it('onboards the account, pays out the available balance, and lists the payout as paid', async () => {
    const api = as((await createAccount()).secret_key);
    const missing = await api.get('/v1/connect/account');
    expect({ status: missing.status, code: missing.body.error.code }).toEqual({ status: 404, code: 'connect_account_missing' });
    expect((await api.get('/v1/balance')).body).toEqual({ object: 'balance', livemode: false, available: [], pending: [] });

    const started = await api.post('/v1/connect/account', { business_name: 'Harbour Lights', country: 'de' });
    expect(started.body).toMatchObject({ object: 'connect_account', status: 'onboarding', requirements_due: ['default_currency', 'bank_account'], payouts_enabled: false });
    const refusedEarly = await api.post('/v1/payouts', { amount: 100, currency: 'EUR' });
    expect({ status: refusedEarly.status, code: refusedEarly.body.error.code }).toEqual({ status: 409, code: 'payouts_not_enabled' });
    const complete = await api.post('/v1/connect/account', { default_currency: 'EUR', bank_account: { account_holder_name: 'Harbour Lights', account_number: '000123456789' } });
    expect(complete.body).toMatchObject({ status: 'pending_verification', requirements_due: [], bank_account: { account_holder_name: 'Harbour Lights', last4: '6789' } });
    await waitFor('the verification', async () => ((await api.get('/v1/connect/account')).body.status === 'enabled' ? true : undefined));

    await settled(api, 10_000);
    expect((await api.get('/v1/balance')).body).toEqual({ object: 'balance', livemode: false, available: [{ amount: 9680, currency: 'EUR' }], pending: [{ amount: 0, currency: 'EUR' }] });
    const tooMuch = await api.post('/v1/payouts', { amount: 9681, currency: 'EUR' });
    expect({ status: tooMuch.status, code: tooMuch.body.error.code, param: tooMuch.body.error.param }).toEqual({ status: 409, code: 'balance_insufficient', param: 'amount' });

    const created = await api.post('/v1/payouts', { amount: 9000, currency: 'EUR', description: 'Weekly payout' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ object: 'payout', amount: 9000, currency: 'EUR', status: 'pending', description: 'Weekly payout', destination_last4: '6789', failure_code: null });
    expect((await api.get('/v1/balance')).body.available).toEqual([{ amount: 680, currency: 'EUR' }]);
    await payoutStatus(api, created.body.id, 'paid');
    expect((await api.get('/v1/balance')).body.available).toEqual([{ amount: 680, currency: 'EUR' }]);
  });

  it('returns a failed payout’s money to the balance', async () => {
    const api = as((await createAccount()).secret_key);
    await api.post('/v1/connect/account', { business_name: 'Closed Co', country: 'NL', default_currency: 'EUR', bank_account: { account_holder_name: 'Closed Co', account_number: '000111111113' } });
    await waitFor('the verification', async () => ((await api.get('/v1/connect/account')).body.payouts_enabled ? true : undefined));
    await settled(api, 5_000);
    const created = await api.post('/v1/payouts', { amount: 4000, currency: 'EUR' });
    const failed = await payoutStatus(api, created.body.id, 'failed');
    expect(failed).toMatchObject({ failure_code: 'account_closed', failure_message: 'The bank account has been closed.' });
    expect((await api.get('/v1/balance')).body.available).toEqual([{ amount: 4825, currency: 'EUR' }]);
  });

  it('keeps each key to its scope, and refuses live payouts while no live processor is configured', async () => {
    const account = await createAccount();
    const owner = as(account.secret_key);
    const reader = await owner.post('/v1/account/keys', { label: 'reader', scopes: ['payouts:read'] });
    const readOnly = as(reader.body.secret);
    expect((await readOnly.get('/v1/balance')).status).toBe(200);
    expect((await readOnly.get('/v1/payouts')).status).toBe(200);
    const refused = await readOnly.post('/v1/payouts', { amount: 100, currency: 'EUR' });
    expect({ status: refused.status, message: refused.body.error.message }).toEqual({ status: 403, message: 'Missing required scope: payouts:claim' });

    const live = as((await activateLive(account.account_id)).secret_key);
    const liveAccount = await live.post('/v1/connect/account', { business_name: 'Live Co' });
    expect({ status: liveAccount.status, code: liveAccount.body.error.code }).toEqual({ status: 409, code: 'live_payments_unavailable' });
    expect((await live.get('/v1/balance')).body).toMatchObject({ livemode: true, available: [] });
  });
});
