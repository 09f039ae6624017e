import { createPublicKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { as } from './api';
import type { Client } from './lists';

/**
 * What a door device does with ticket codes: fetch the key set once (GET /v1/scan/keys, with a
 * scanning:write key), then verify codes offline. `verify` answers the code's claims, or throws
 * when the signature or the key is not the platform's.
 */
export async function doorDevice(admin: Client): Promise<{ keys: Array<{ kid: string }>; verify: (code: string) => unknown }> {
  const scanner = (await admin.post('/v1/account/keys', { label: 'door', scopes: ['scanning:write'] })).body.secret as string;
  const keySet = await as(scanner).get('/v1/scan/keys');
  expect(keySet.status).toBe(200);
  expect(keySet.body.object).toBe('ticket_code_key_set');
  const keys: Array<{ kid: string } & Record<string, unknown>> = keySet.body.keys;
  return {
    keys,
    verify: (code) => {
      const kid = jwt.decode(code, { complete: true })?.header.kid;
      const key = keys.find((candidate) => candidate.kid === kid);
      if (!key) throw new Error(`the key set has no key '${kid}'`);
      return jwt.verify(code, createPublicKey({ key, format: 'jwk' }), { algorithms: ['ES256'] });
    },
  };
}
