import { z } from 'zod';
import { ALL_SCOPES, KEY_KINDS, MODES } from '@ticketing/auth';
import { toListEnvelope } from '@ticketing/pagination';
import { accountResource, presentAccount } from '../presenters/account.presenter';
import { apiKeyResource, createdApiKeyResource, presentApiKey, presentCreatedApiKey } from '../presenters/api-key.presenter';
import { listOf } from '../presenters/resource.schema';
import { text } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { uniqueItems } from '../validation/unique-items';
import { defineRoute, secretKey } from './route';

const TAG = 'Account and keys';

const mintKeyBody = z.strictObject({
  label: text(100),
  scopes: uniqueItems(z.enum(ALL_SCOPES, { error: `must be one of ${ALL_SCOPES.join(', ')}` })).meta({
    description: "Must be a subset of the calling key's scopes.",
  }),
  mode: z.enum(MODES, { error: 'must be test or live' }).optional().meta({ description: "Defaults to the calling key's mode; a test key cannot mint a live key." }),
  kind: z.enum(KEY_KINDS, { error: 'must be secret or publishable' }).optional().meta({ description: 'Defaults to secret.' }),
});

export const accountRoutes = [
  defineRoute({
    operationId: 'getAccount',
    method: 'get',
    path: '/v1/account',
    summary: 'Confirm the key and read its account and mode',
    tag: TAG,
    access: secretKey(null),
    response: accountResource,
    // Answered from the verified key, which carries its account: no call, no query.
    handler: async (_input, { key }) => presentAccount(key!),
  }),
  defineRoute({
    operationId: 'createApiKey',
    method: 'post',
    path: '/v1/account/keys',
    summary: 'Mint an API key (its secret is in this response, once)',
    tag: TAG,
    access: secretKey('keys:manage'),
    errors: ['scope_not_held', 'mode_unavailable', 'mode_not_allowed', 'key_limit_reached'],
    body: mintKeyBody,
    response: createdApiKeyResource,
    handler: async ({ body }, { services }) =>
      presentCreatedApiKey(await services.identity.createApiKey({ label: body.label, scopes: body.scopes, mode: body.mode ?? '', kind: body.kind ?? '' })),
  }),
  defineRoute({
    operationId: 'listApiKeys',
    method: 'get',
    path: '/v1/account/keys',
    summary: 'List API keys, revoked ones included, without secrets',
    tag: TAG,
    access: secretKey('keys:manage'),
    query: listQuery,
    response: listOf(apiKeyResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.identity.listApiKeys({ page: pageRequest(query) }), presentApiKey),
  }),
  defineRoute({
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/v1/account/keys/{prefix}',
    summary: 'Revoke an API key immediately (never the calling key)',
    tag: TAG,
    access: secretKey('keys:manage'),
    errors: ['cannot_revoke_self'],
    response: apiKeyResource,
    handler: async ({ params }, { services }) => presentApiKey(await services.identity.revokeApiKey({ prefix: params.prefix })),
  }),
];
