import { methodToCharge, validNewPaymentIntent } from './payment-intent';

describe('validNewPaymentIntent', () => {
  const command = { amount: 4500, currency: 'eur', description: '', metadata: {}, payment_method: '' };

  it('upper-cases the currency and awaits a payment method unless given one', () => {
    expect(validNewPaymentIntent(command)).toMatchObject({ currency: 'EUR', description: null, payment_method: null, status: 'requires_payment_method' });
    expect(validNewPaymentIntent({ ...command, payment_method: 'pm_card_visa' })).toMatchObject({ payment_method: 'pm_card_visa', status: 'requires_confirmation' });
  });

  it.each([0, -1, 1.5, 100_000_000])('refuses an amount of %s', (amount) => {
    expect(() => validNewPaymentIntent({ ...command, amount })).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'amount' }));
  });
});

describe('methodToCharge', () => {
  const intent = (status: Parameters<typeof methodToCharge>[0]['status'], payment_method: string | null = null, expires_at: Date | null = null) => ({ id: 'pi_1', status, payment_method, expires_at });
  const now = new Date('2027-01-07T12:00:00Z');

  it('charges the method given, else the intent’s', () => {
    expect(methodToCharge(intent('requires_confirmation', 'pm_card_visa'), null, now)).toBe('pm_card_visa');
    expect(methodToCharge(intent('requires_confirmation', 'pm_card_visa'), 'pm_card_mastercard', now)).toBe('pm_card_mastercard');
    expect(methodToCharge(intent('requires_payment_method'), 'pm_card_visa', now)).toBe('pm_card_visa');
  });

  it('asks for a payment method when there is none', () => {
    expect(() => methodToCharge(intent('requires_payment_method'), null, now)).toThrow(expect.objectContaining({ code: 'parameter_missing', param: 'payment_method' }));
  });

  it('refuses to confirm an order intent past its expiry', () => {
    expect(() => methodToCharge(intent('requires_confirmation', 'pm_card_visa', now), null, now)).toThrow(expect.objectContaining({ code: 'payment_intent_unexpected_state', message: expect.stringContaining('expired at 2027-01-07T12:00:00.000Z') }));
    expect(methodToCharge(intent('requires_confirmation', 'pm_card_visa', new Date(now.getTime() + 1)), null, now)).toBe('pm_card_visa');
  });

  it.each(['requires_action', 'processing', 'succeeded', 'canceled'] as const)('refuses to confirm an intent that is %s', (status) => {
    expect(() => methodToCharge(intent(status, 'pm_card_visa'), 'pm_card_visa', now)).toThrow(expect.objectContaining({ code: 'payment_intent_unexpected_state', message: expect.stringContaining(`while its status is ${status}`) }));
  });
});
