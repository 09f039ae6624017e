import { z } from 'zod';
import { CONNECT_ACCOUNT_STATUSES, PAYOUT_STATUSES, type paymentsV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const money = z.object({ amount: z.number().int(), currency: z.string() }).meta({ id: 'Money' });

export const balanceResource = z
  .object({
    object: z.literal('balance'),
    livemode: z.boolean(),
    available: z.array(money).meta({ description: 'Per currency, what can be paid out now.' }),
    pending: z.array(money).meta({ description: 'Per currency, payments not settled yet: available after the settlement delay (2 days).' }),
  })
  .meta({ id: 'Balance', example: { object: 'balance', livemode: false, available: [{ amount: 87090, currency: 'EUR' }], pending: [{ amount: 8709, currency: 'EUR' }] } });

export const payoutResource = z
  .object({
    ...resourceFields('payout'),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(PAYOUT_STATUSES).meta({ description: 'pending → in_transit → paid | failed; a failed payout’s amount is back in the available balance.' }),
    description: z.string().nullable(),
    failure_code: z.string().nullable().meta({ description: 'Why it failed (no_account, account_closed…); null unless it did.' }),
    failure_message: z.string().nullable(),
    destination_last4: z.string().meta({ description: 'The last four digits of the bank account it goes to.' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'Payout',
    example: {
      id: 'po_01JD3WM2P4R6T8V0X2Z4B6D8F0',
      object: 'payout',
      livemode: false,
      amount: 50000,
      currency: 'EUR',
      status: 'in_transit',
      description: 'Weekly payout',
      failure_code: null,
      failure_message: null,
      destination_last4: '6789',
      created_at: '2027-01-09T09:00:00.000Z',
      updated_at: '2027-01-09T10:00:00.000Z',
    },
  });

export const connectAccountResource = z
  .object({
    ...resourceFields('connect_account'),
    status: z.enum(CONNECT_ACCOUNT_STATUSES).meta({ description: 'onboarding while requirements are due, pending_verification, then enabled: only an enabled account receives payouts.' }),
    requirements_due: z.array(z.string()).meta({ description: 'What is still needed: business_name, country, default_currency, bank_account.' }),
    payouts_enabled: z.boolean(),
    business_name: z.string().nullable(),
    country: z.string().nullable(),
    default_currency: z.string().nullable(),
    bank_account: z.object({ account_holder_name: z.string(), last4: z.string() }).nullable().meta({ description: 'Only the last four digits of the account number are kept.' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'ConnectAccount',
    example: {
      id: 'ca_01JD3WN4R6T8V0X2Z4B6D8F0H2',
      object: 'connect_account',
      livemode: false,
      status: 'enabled',
      requirements_due: [],
      payouts_enabled: true,
      business_name: 'Harbour Lights Ltd',
      country: 'DE',
      default_currency: 'EUR',
      bank_account: { account_holder_name: 'Harbour Lights Ltd', last4: '6789' },
      created_at: '2027-01-02T09:00:00.000Z',
      updated_at: '2027-01-02T09:01:00.000Z',
    },
  });

export function presentBalance(balance: paymentsV1.Balance): z.output<typeof balanceResource> {
  return { object: 'balance', livemode: balance.livemode, available: balance.available, pending: balance.pending };
}

export function presentPayout(payout: paymentsV1.Payout): z.output<typeof payoutResource> {
  return {
    id: payout.id,
    object: 'payout',
    livemode: payout.livemode,
    amount: payout.amount,
    currency: payout.currency,
    status: oneOf(PAYOUT_STATUSES, payout.status, 'payout status'),
    description: nullIfEmpty(payout.description),
    failure_code: nullIfEmpty(payout.failure_code),
    failure_message: nullIfEmpty(payout.failure_message),
    destination_last4: payout.destination_last4,
    created_at: payout.created_at,
    updated_at: payout.updated_at,
  };
}

export function presentConnectAccount(account: paymentsV1.ConnectAccount): z.output<typeof connectAccountResource> {
  return {
    id: account.id,
    object: 'connect_account',
    livemode: account.livemode,
    status: oneOf(CONNECT_ACCOUNT_STATUSES, account.status, 'connect account status'),
    requirements_due: account.requirements_due,
    payouts_enabled: account.payouts_enabled,
    business_name: nullIfEmpty(account.business_name),
    country: nullIfEmpty(account.country),
    default_currency: nullIfEmpty(account.default_currency),
    bank_account: account.bank_account ?? null,
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}
