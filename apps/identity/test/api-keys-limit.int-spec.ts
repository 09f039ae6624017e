import { keyCacheEntry } from '@ticketing/auth';
import { KeyCache } from '../src/cache/key-cache';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../src/domain/key-minting';
import { ActivateLiveModeUseCase } from '../src/usecases/activate-live-mode/activate-live-mode.usecase';
import { IdentityHarness, type TestAccount } from './support/identity-harness';

describe('identity: at most 25 active keys per account, under any concurrency', () => {
  let identity: IdentityHarness;

  beforeAll(async () => {
    identity = await IdentityHarness.start();
  });

  afterAll(async () => {
    await identity.stop();
  });

  const activeKeys = (accountId: string) => identity.prisma.apiKey.count({ where: { account_id: accountId, revoked_at: null } });

  /** Mints until the account has `total` active keys (its root key included). */
  async function fillTo(account: TestAccount, total: number, as = account.testRoot): Promise<void> {
    for (let count = await activeKeys(account.id); count < total; count += 1) {
      await identity.createApiKey(as.claims, { label: `filler ${count}`, scopes: ['events:read'] });
    }
  }

  it('counts both modes together, frees a slot on revocation, and refuses the 26th with 409', async () => {
    const account = await identity.createAccount({ live: true });
    await fillTo(account, 20);
    await fillTo(account, MAX_ACTIVE_KEYS_PER_ACCOUNT, account.liveRoot);
    expect(await activeKeys(account.id)).toBe(25);

    for (const caller of [account.testRoot, account.liveRoot!]) {
      await expect(identity.createApiKey(caller.claims, { label: 'one too many', scopes: ['events:read'] })).rejects.toMatchObject({
        code: 'key_limit_reached',
        status: 409,
      });
    }
    // The operator's live root key is subject to the same limit.
    await expect(new ActivateLiveModeUseCase(identity.prisma, new KeyCache(identity.redis)).execute({ accountId: account.id })).rejects.toMatchObject({ code: 'key_limit_reached' });

    const victim = (await identity.listApiKeys(account.testRoot.claims, { limit: 100 })).data.find((key) => key.label.startsWith('filler'))!;
    await identity.revokeApiKey(account.testRoot.claims, victim.prefix);
    const { key_hash } = await identity.prisma.apiKey.findUniqueOrThrow({ where: { id: victim.id } });
    await identity.redis.del(keyCacheEntry(key_hash));
    await expect(identity.createApiKey(account.testRoot.claims, { label: 'replacement', scopes: ['events:read'] })).resolves.toBeDefined();
    await expect(identity.createApiKey(account.testRoot.claims, { label: 'again too many', scopes: ['events:read'] })).rejects.toMatchObject({
      code: 'key_limit_reached',
    });
    expect(await activeKeys(account.id)).toBe(25);
  });

  it('lets exactly 5 of 30 parallel mintings through when 20 keys are active', async () => {
    const account = await identity.createAccount();
    await fillTo(account, 20);

    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, index) => identity.createApiKey(account.testRoot.claims, { label: `parallel ${index}`, scopes: ['events:read'] })),
    );

    const refused = results.filter((result) => result.status === 'rejected');
    expect(results.filter((result) => result.status === 'fulfilled').length).toBe(5);
    expect(refused.length).toBe(25);
    for (const result of refused) expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'key_limit_reached' });
    expect(await activeKeys(account.id)).toBe(25);
  });

  it('holds the limit when parallel mintings come from both modes and from several keys', async () => {
    const account = await identity.createAccount({ live: true });
    const minters = [account.testRoot, account.liveRoot!];
    for (const mode of ['test', 'live'] as const) {
      const as = mode === 'test' ? account.testRoot : account.liveRoot!;
      minters.push(await identity.mint(account.id, as, { scopes: ['events:read', 'keys:manage'] }));
    }
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) => identity.createApiKey(minters[index % minters.length]!.claims, { label: `burst ${index}`, scopes: ['events:read'] })),
    );
    expect(results.filter((result) => result.status === 'fulfilled').length).toBe(MAX_ACTIVE_KEYS_PER_ACCOUNT - 4);
    expect(await activeKeys(account.id)).toBe(MAX_ACTIVE_KEYS_PER_ACCOUNT);
  });
});
