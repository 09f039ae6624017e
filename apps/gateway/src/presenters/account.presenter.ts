import { z } from 'zod';
import { MODES } from '@ticketing/auth';
import type { identityV1 } from '@ticketing/contracts';
import { modeOf } from './fields';
import { resourceFields } from './resource.schema';

export const accountResource = z
  .object({
    ...resourceFields('account'),
    name: z.string(),
    mode: z.enum(MODES).meta({ description: 'The mode of the key that asked.' }),
    live_mode_activated: z.boolean(),
  })
  .meta({ id: 'Account' });

export function presentAccount(account: identityV1.Account): z.output<typeof accountResource> {
  const mode = modeOf(account.mode);
  return {
    id: account.id,
    object: 'account',
    livemode: mode === 'live',
    name: account.name,
    mode,
    live_mode_activated: account.live_mode_activated,
    created_at: account.created_at,
  };
}
