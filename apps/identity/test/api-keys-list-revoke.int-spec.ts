import { REVOKED_KEY_ENTRY, generateApiKey, hashApiKey, KEY_CACHE_TTL_SECONDS, keyCacheEntry, type CachedKey } from '@ticketing/auth';
import type { identityV1 } from '@ticketing/contracts';
import { keysManagedBy } from '../src/domain/api-key';
import { ApiKeyRepository } from '../src/repositories/api-key.repository';
import { IdentityHarness, type TestAccount, type TestKey } from './support/identity-harness';

describe('identity: listing and revoking keys (real PostgreSQL, Redis and gRPC)', () => {
  let identity: IdentityHarness;
  const cacheEntries: string[] = [];

  beforeAll(async () => {
    identity = await IdentityHarness.start();
  });

  afterAll(async () => {
    if (cacheEntries.length > 0) await identity.redis.del(cacheEntries);
    await identity.stop();
  });

  async function listAll(claims: TestKey['claims'], limit: number): Promise<{ keys: identityV1.ApiKey[]; pages: Array<{ size: number; has_more: boolean }> }> {
    const keys: identityV1.ApiKey[] = [];
    const pages: Array<{ size: number; has_more: boolean }> = [];
    for (let startingAfter: string | undefined; ; ) {
      const page = await identity.listApiKeys(claims, { limit, starting_after: startingAfter });
      keys.push(...page.data);
      pages.push({ size: page.data.length, has_more: page.has_more });
      if (!page.has_more) return { keys, pages };
      startingAfter = page.data.at(-1)!.id;
    }
  }

  describe('ListApiKeys', () => {
    let account: TestAccount;
    const seeded = { test: [] as string[], live: [] as string[], active: { test: 0, live: 0 } };

    beforeAll(async () => {
      account = await identity.createAccount({ live: true });
      // More keys than one page can hold; the 25-key limit is on active keys, so most are revoked.
      const keys = new ApiKeyRepository(identity.prisma);
      for (let index = 0; index < 130; index += 1) {
        const mode = index % 10 === 0 ? 'live' : 'test';
        const generated = generateApiKey('secret', mode);
        const tenant = { accountId: account.id, mode } as const;
        const key = await keys.create(tenant, { kind: 'secret', prefix: generated.prefix, key_hash: generated.hash, label: `seed ${index}`, scopes: ['events:read'] });
        if (index >= 12) await keys.revoke(keysManagedBy(tenant), key.id);
        else seeded.active[mode] += 1;
        seeded[mode].push(key.id);
      }
    });

    it("pages through all of the caller's mode, newest first, revoked included", async () => {
      const everyTestKey = [account.testRoot.record.id, ...seeded.test].sort().reverse();
      expect(everyTestKey.length).toBeGreaterThan(100);

      const byHundred = await listAll(account.testRoot.claims, 100);
      expect(byHundred.keys.map((key) => key.id)).toEqual(everyTestKey);
      expect(byHundred.pages).toEqual([
        { size: 100, has_more: true },
        { size: everyTestKey.length - 100, has_more: false },
      ]);
      expect(byHundred.keys.every((key) => key.mode === 'test')).toBe(true);
      const active = byHundred.keys.filter((key) => key.revoked_at === '').length;
      expect(active).toBe(seeded.active.test + 1);
      expect(byHundred.keys.length - active).toBe(seeded.test.length - seeded.active.test);

      const byDefault = await listAll(account.testRoot.claims, 0);
      expect(byDefault.keys.map((key) => key.id)).toEqual(everyTestKey);
      expect(byDefault.pages[0]).toEqual({ size: 20, has_more: true });
    });

    it('never shows a test key the live keys; shows a live key the keys of both modes, since it mints both (decision 0047)', async () => {
      const live = await listAll(account.liveRoot!.claims, 100);
      const everyKey = [account.liveRoot!.record.id, ...seeded.live, account.testRoot.record.id, ...seeded.test].sort().reverse();
      expect(live.keys.map((key) => key.id)).toEqual(everyKey);
      expect(live.keys.filter((key) => key.mode === 'live').map((key) => key.id)).toEqual([account.liveRoot!.record.id, ...seeded.live].sort().reverse());
      // A live key's id is no cursor for a test key: the key does not exist for that caller.
      const newestLive = live.keys.find((key) => key.mode === 'live')!;
      await expect(identity.listApiKeys(account.testRoot.claims, { starting_after: newestLive.id })).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'starting_after',
        status: 400,
      });
    });

    it("never lists another account's keys and never carries a secret or hash", async () => {
      const other = await identity.createAccount();
      const page = await identity.listApiKeys(other.testRoot.claims, { limit: 100 });
      expect(page.data.map((key) => key.id)).toEqual([other.testRoot.record.id]);
      expect(Object.keys(page.data[0]!).sort()).toEqual(['created_at', 'id', 'kind', 'label', 'mode', 'prefix', 'revoked_at', 'scopes']);
      expect(JSON.stringify(page)).not.toContain(other.testRoot.secret.slice(20));
    });
  });

  describe('RevokeApiKey', () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await identity.createAccount({ live: true });
    });

    async function readCache(secret: string): Promise<{ entry: CachedKey | null; ttl: number }> {
      const name = keyCacheEntry(hashApiKey(secret));
      cacheEntries.push(name);
      const raw = await identity.redis.get(name);
      return { entry: raw === null ? null : (JSON.parse(raw) as CachedKey), ttl: await identity.redis.ttl(name) };
    }

    it('revokes immediately: keeps the key listed and overwrites the gateway’s cached entry with a tombstone', async () => {
      const victim = await identity.mint(account.id, account.testRoot, { label: 'temp', scopes: ['events:read', 'tickets:read'] });
      const name = keyCacheEntry(hashApiKey(victim.secret));
      const cachedByGateway: CachedKey = {
        key_id: victim.record.id,
        prefix: victim.record.prefix,
        account_id: account.id,
        mode: 'test',
        kind: 'secret',
        scopes: ['events:read', 'tickets:read'],
        revoked: false,
        account: { name: 'Test account', live_mode_activated: false, created_at: '2027-01-01T00:00:00.000Z' },
      };
      await identity.redis.set(name, JSON.stringify(cachedByGateway), { condition: 'NX', expiration: { type: 'EX', value: KEY_CACHE_TTL_SECONDS } });

      const revoked = await identity.revokeApiKey(account.testRoot.claims, victim.record.prefix);
      expect(revoked).toMatchObject({ id: victim.record.id, prefix: victim.record.prefix, label: 'temp' });
      expect(new Date(revoked.revoked_at).getTime()).toBeGreaterThan(0);

      const cached = await readCache(victim.secret);
      expect(cached.entry).toEqual(REVOKED_KEY_ENTRY);
      expect(cached.ttl).toBeGreaterThan(KEY_CACHE_TTL_SECONDS - 10);
      expect(cached.ttl).toBeLessThanOrEqual(KEY_CACHE_TTL_SECONDS);
      // A gateway fill racing the revocation (it writes only where no entry is) cannot bring the key back.
      expect(await identity.redis.set(name, JSON.stringify(cachedByGateway), { condition: 'NX', expiration: { type: 'EX', value: KEY_CACHE_TTL_SECONDS } })).toBeNull();

      await expect(identity.verifyApiKey({ key_hash: hashApiKey(victim.secret) })).resolves.toMatchObject({ revoked: true });
      const listed = (await identity.listApiKeys(account.testRoot.claims, { limit: 100 })).data.find((key) => key.id === victim.record.id);
      expect(listed?.revoked_at).toBe(revoked.revoked_at);
    });

    it('writes the tombstone even when the gateway had not cached the key, and again on a repeated revocation', async () => {
      const victim = await identity.mint(account.id, account.testRoot, { label: 'never used', scopes: ['events:read'] });
      const first = await identity.revokeApiKey(account.testRoot.claims, victim.record.prefix);
      expect((await readCache(victim.secret)).entry).toEqual(REVOKED_KEY_ENTRY);

      await identity.redis.del(keyCacheEntry(hashApiKey(victim.secret)));
      const again = await identity.revokeApiKey(account.testRoot.claims, victim.record.prefix);
      expect(again).toEqual(first);
      expect((await readCache(victim.secret)).entry).toEqual(REVOKED_KEY_ENTRY);
    });

    it('refuses to revoke the calling key, which stays active', async () => {
      const manager = await identity.mint(account.id, account.testRoot, { label: 'manager', scopes: ['keys:manage'] });
      await expect(identity.revokeApiKey(manager.claims, manager.record.prefix)).rejects.toMatchObject({ code: 'cannot_revoke_self', status: 400 });
      await expect(identity.verifyApiKey({ key_hash: hashApiKey(manager.secret) })).resolves.toMatchObject({ revoked: false });
      expect((await readCache(manager.secret)).entry).toBeNull();
    });

    it('lets only one of two keys revoking each other at once succeed, and a key revoked meanwhile mint nothing', async () => {
      for (let round = 0; round < 5; round++) {
        const left = await identity.mint(account.id, account.testRoot, { label: `left ${round}`, scopes: ['keys:manage'] });
        const right = await identity.mint(account.id, account.testRoot, { label: `right ${round}`, scopes: ['keys:manage'] });
        const outcomes = await Promise.allSettled([identity.revokeApiKey(left.claims, right.record.prefix), identity.revokeApiKey(right.claims, left.record.prefix)]);
        const answers = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'revoked' : (outcome.reason as { code?: string }).code));
        expect(answers.sort()).toEqual(['invalid_api_key', 'revoked']);
        const active = await Promise.all([left, right].map(async (key) => !(await identity.verifyApiKey({ key_hash: hashApiKey(key.secret) })).revoked));
        expect(active.filter(Boolean)).toHaveLength(1);
      }
      const revoked = await identity.mint(account.id, account.testRoot, { label: 'about to go', scopes: ['keys:manage'] });
      await identity.revokeApiKey(account.testRoot.claims, revoked.record.prefix);
      await expect(identity.createApiKey(revoked.claims, { label: 'from a revoked key', scopes: [] })).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
    });

    it('lets a live key revoke a test key it minted: the gateway refuses it at once (decision 0047)', async () => {
      const minted = await identity.createApiKey(account.liveRoot!.claims, { label: 'sandbox CI', scopes: ['events:read'], mode: 'test' });
      expect(minted.key).toMatchObject({ mode: 'test' });
      const revoked = await identity.revokeApiKey(account.liveRoot!.claims, minted.key!.prefix);
      expect(revoked).toMatchObject({ id: minted.key!.id, mode: 'test', revoked_at: expect.stringMatching(/^\d{4}-/) });
      expect((await readCache(minted.secret)).entry).toEqual(REVOKED_KEY_ENTRY);
    });

    it("answers 404 to a test key naming a live key, another account's key or an unknown one, and changes nothing", async () => {
      const liveKey = await identity.mint(account.id, account.liveRoot!, { label: 'live side', scopes: ['events:read'] });
      const testKey = await identity.mint(account.id, account.testRoot, { label: 'test side', scopes: ['events:read'] });
      const stranger = await identity.createAccount();
      const attempts: Array<[TestKey, string]> = [
        [account.testRoot, liveKey.record.prefix],
        [stranger.testRoot, testKey.record.prefix],
        [account.testRoot, 'sk_test_doesnotexist'],
        [account.testRoot, ''],
      ];
      for (const [caller, prefix] of attempts) {
        await expect(identity.revokeApiKey(caller.claims, prefix)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
      }
      for (const key of [testKey, liveKey]) {
        await expect(identity.verifyApiKey({ key_hash: hashApiKey(key.secret) })).resolves.toMatchObject({ revoked: false });
        expect((await readCache(key.secret)).entry).toBeNull();
      }
    });
  });
});
