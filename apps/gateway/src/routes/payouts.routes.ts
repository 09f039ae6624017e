import { z } from 'zod';
import { isCountryCode, MAX_INTENT_AMOUNT } from '@ticketing/contracts';
import { toListEnvelope } from '@ticketing/pagination';
import { balanceResource, connectAccountResource, payoutResource, presentBalance, presentConnectAccount, presentPayout } from '../presenters/payout.presenter';
import { listOf } from '../presenters/resource.schema';
import { absentOrNull, currency, text, upTo, wholeNumber } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Balance and payouts';

const createPayoutBody = z
  .strictObject({
    amount: wholeNumber(1, MAX_INTENT_AMOUNT).meta({ description: 'Minor units; at most the available balance in currency.', example: 50000 }),
    currency,
    description: absentOrNull(upTo(1000).meta({ example: 'Weekly payout' })),
  })
  .meta({ example: { amount: 50000, currency: 'EUR', description: 'Weekly payout' } });

const saveConnectAccountBody = z
  .strictObject({
    business_name: absentOrNull(text(200).meta({ example: 'Harbour Lights Ltd' })),
    country: absentOrNull(z.string().refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as DE').meta({ example: 'DE' })),
    default_currency: absentOrNull(currency),
    bank_account: absentOrNull(
      z.strictObject({
        account_holder_name: text(200),
        account_number: z
          .string()
          .regex(/^[A-Za-z0-9 ]{4,40}$/, 'must be an IBAN or account number: 4 to 34 letters and digits')
          .meta({ description: 'An IBAN or local account number; only its last four digits are kept. In test mode, 000111111116 and 000111111113 make payouts fail (no_account, account_closed).', example: 'DE89370400440532013000' }),
      }),
    ).meta({ description: 'Where payouts go. A new bank account is verified again before payouts resume. Fields left out or null keep their values.' }),
  })
  .meta({ example: { business_name: 'Harbour Lights Ltd', country: 'DE', default_currency: 'EUR', bank_account: { account_holder_name: 'Harbour Lights Ltd', account_number: 'DE89370400440532013000' } } });

export const payoutsRoutes = [
  defineRoute({
    operationId: 'getBalance',
    method: 'get',
    path: '/v1/balance',
    summary: 'Read the balance: available and pending, per currency, from the ledger',
    tag: TAG,
    access: secretKey('payouts:read'),
    response: balanceResource,
    handler: async (_input, { services }) => presentBalance(await services.balance.getBalance({})),
  }),
  defineRoute({
    operationId: 'listPayouts',
    method: 'get',
    path: '/v1/payouts',
    summary: 'List payouts, newest first',
    tag: TAG,
    access: secretKey('payouts:read'),
    query: listQuery,
    response: listOf(payoutResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.payouts.listPayouts({ page: pageRequest(query) }), presentPayout),
  }),
  defineRoute({
    operationId: 'createPayout',
    method: 'post',
    path: '/v1/payouts',
    summary: 'Pay out part of the available balance to the connect account’s bank account',
    tag: TAG,
    access: secretKey('payouts:claim'),
    errors: ['balance_insufficient', 'payouts_not_enabled', 'live_payments_unavailable'],
    body: createPayoutBody,
    response: payoutResource,
    handler: async ({ body }, { services }) => presentPayout(await services.payouts.createPayout({ amount: body.amount, currency: body.currency, description: body.description ?? '' })),
  }),
  defineRoute({
    operationId: 'getConnectAccount',
    method: 'get',
    path: '/v1/connect/account',
    summary: 'Read the payout (connect) account: its onboarding state and what it still needs',
    tag: TAG,
    access: secretKey('payouts:claim'),
    errors: ['connect_account_missing'],
    response: connectAccountResource,
    handler: async (_input, { services }) => presentConnectAccount(await services.connectAccounts.getConnectAccount({})),
  }),
  defineRoute({
    operationId: 'createConnectAccount',
    method: 'post',
    path: '/v1/connect/account',
    summary: 'Set up the payout (connect) account, or change the details given',
    tag: TAG,
    access: secretKey('payouts:claim'),
    errors: ['live_payments_unavailable'],
    body: saveConnectAccountBody,
    response: connectAccountResource,
    handler: async ({ body }, { services }) =>
      presentConnectAccount(
        await services.connectAccounts.saveConnectAccount({
          business_name: body.business_name ?? '',
          country: body.country ?? '',
          default_currency: body.default_currency ?? '',
          bank_account: body.bank_account,
        }),
      ),
  }),
];
