import { z } from 'zod';
import { MODES, type CachedKey } from '@ticketing/auth';
import { resourceFields } from './resource.schema';

export const accountResource = z
  .object({
    ...resourceFields('account'),
    name: z.string(),
    mode: z.enum(MODES).meta({ description: 'The mode of the key that asked.' }),
    live_mode_activated: z.boolean(),
  })
  .meta({ id: 'Account' });

/** The account of the key that asked, as the gateway caches it with the key. */
export function presentAccount(key: CachedKey): z.output<typeof accountResource> {
  return {
    id: key.account_id,
    object: 'account',
    livemode: key.mode === 'live',
    name: key.account.name,
    mode: key.mode,
    live_mode_activated: key.account.live_mode_activated,
    created_at: key.account.created_at,
  };
}
