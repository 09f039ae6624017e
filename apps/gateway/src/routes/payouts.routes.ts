import { listOf, plannedObject, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Balance and payouts';
const payout = plannedResource('payout');
const connectAccount = plannedResource('connect_account');

export const payoutsRoutes = [
  defineRoute({ operationId: 'getBalance', method: 'get', path: '/v1/balance', summary: 'Read the balance', tag: TAG, access: secretKey('payouts:read'), response: plannedObject('balance') }),
  defineRoute({
    operationId: 'listPayouts',
    method: 'get',
    path: '/v1/payouts',
    summary: 'List payouts',
    tag: TAG,
    access: secretKey('payouts:read'),
    query: listQuery,
    response: listOf(payout),
  }),
  defineRoute({ operationId: 'createPayout', method: 'post', path: '/v1/payouts', summary: 'Claim a payout', tag: TAG, access: secretKey('payouts:claim'), response: payout }),
  defineRoute({
    operationId: 'getConnectAccount',
    method: 'get',
    path: '/v1/connect/account',
    summary: 'Read the payout (connect) account',
    tag: TAG,
    access: secretKey('payouts:claim'),
    response: connectAccount,
  }),
  defineRoute({
    operationId: 'createConnectAccount',
    method: 'post',
    path: '/v1/connect/account',
    summary: 'Set up the payout (connect) account',
    tag: TAG,
    access: secretKey('payouts:claim'),
    response: connectAccount,
  }),
];
