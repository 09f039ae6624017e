import { routeTable } from '../routes';
import { bucketOf } from './budgets';

describe('which bucket a keyed operation draws on', () => {
  const keyed = routeTable.filter((route) => route.access.kind !== 'public');
  const operationsIn = (bucket: string) => keyed.filter((route) => bucketOf(route) === bucket).map((route) => `${route.method.toUpperCase()} ${route.path}`);

  it('gives key minting its own bucket, and only it', () => {
    expect(operationsIn('key_minting')).toEqual(['POST /v1/account/keys']);
  });

  it('gives every door-scanning operation the scanning bucket', () => {
    expect(operationsIn('scanning')).toEqual(expect.arrayContaining(['POST /v1/scan/validate', 'POST /v1/scan/batch', 'POST /v1/tickets/{id}/attendance']));
    expect(keyed.filter((route) => bucketOf(route) === 'scanning').every((route) => route.access.kind !== 'public' && route.access.scope === 'scanning:write')).toBe(true);
  });

  it('counts everything else against the account', () => {
    expect(operationsIn('account')).toEqual(expect.arrayContaining(['GET /v1/account', 'GET /v1/account/keys', 'POST /v1/events']));
  });
});
