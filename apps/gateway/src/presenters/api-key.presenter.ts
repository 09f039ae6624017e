import { z } from 'zod';
import { ALL_SCOPES, isScope, KEY_KINDS, MODES } from '@ticketing/auth';
import type { identityV1 } from '@ticketing/contracts';
import { keyKindOf, modeOf, nullIfEmpty } from './fields';
import { resourceFields, timestamp } from './resource.schema';

export const apiKeyResource = z
  .object({
    ...resourceFields('api_key'),
    prefix: z.string().meta({ description: 'Names the key (e.g. in DELETE /v1/account/keys/{prefix}); safe to show.' }),
    label: z.string(),
    scopes: z.array(z.enum(ALL_SCOPES)),
    mode: z.enum(MODES),
    kind: z.enum(KEY_KINDS),
    revoked_at: timestamp.nullable().meta({ description: 'When the key was revoked; null while it is active.' }),
  })
  .meta({ id: 'ApiKey' });

export const createdApiKeyResource = apiKeyResource
  .extend({
    secret: z
      .string()
      .nullable()
      .meta({
        description:
          'The key itself, in the answer that creates it, once: it is stored nowhere. A replay of that answer (the same Idempotency-Key) has it null; if the first answer was lost, revoke the key and mint another.',
      }),
  })
  .meta({ id: 'CreatedApiKey' });

export function presentApiKey(key: identityV1.ApiKey): z.output<typeof apiKeyResource> {
  const mode = modeOf(key.mode);
  return {
    id: key.id,
    object: 'api_key',
    livemode: mode === 'live',
    prefix: key.prefix,
    label: key.label,
    scopes: key.scopes.filter(isScope),
    mode,
    kind: keyKindOf(key.kind),
    created_at: key.created_at,
    revoked_at: nullIfEmpty(key.revoked_at),
  };
}

export function presentCreatedApiKey(created: identityV1.CreatedApiKey): z.output<typeof createdApiKeyResource> {
  if (!created.key) throw new Error('identity answered CreateApiKey without the key record');
  return { ...presentApiKey(created.key), secret: created.secret === '' ? null : created.secret };
}
