import { hashApiKey, KEY_CACHE_TTL_SECONDS, keyCacheEntry, keyGenerationEntry } from '@ticketing/auth';
import { KeyCache } from '../src/cache/key-cache';
import { ActivateLiveModeUseCase } from '../src/usecases/activate-live-mode/activate-live-mode.usecase';
import { SetAccountRateLimitUseCase } from '../src/usecases/set-account-rate-limit/set-account-rate-limit.usecase';
import { IdentityHarness } from './support/identity-harness';

describe("identity: an account's own rate limit, carried by VerifyApiKey (real PostgreSQL and gRPC)", () => {
  let identity: IdentityHarness;
  let setRateLimit: SetAccountRateLimitUseCase;

  beforeAll(async () => {
    identity = await IdentityHarness.start();
    setRateLimit = new SetAccountRateLimitUseCase(identity.prisma, new KeyCache(identity.redis));
  });

  afterAll(async () => {
    await identity.stop();
  });

  it('answers no override until one is set, then the override for every key of the account, in both modes, until it is cleared', async () => {
    const account = await identity.createAccount({ live: true });
    const verify = (secret: string) => identity.verifyApiKey({ key_hash: hashApiKey(secret) });
    expect((await verify(account.testRoot.secret)).rate_limit_per_second).toBeUndefined();

    await expect(setRateLimit.execute({ accountId: account.id, perSecond: 7 })).resolves.toMatchObject({ id: account.id, rate_limit_per_second: 7 });
    await expect(verify(account.testRoot.secret)).resolves.toMatchObject({ account_id: account.id, mode: 'test', rate_limit_per_second: 7 });
    await expect(verify(account.liveRoot!.secret)).resolves.toMatchObject({ account_id: account.id, mode: 'live', rate_limit_per_second: 7 });

    await setRateLimit.execute({ accountId: account.id, perSecond: null });
    expect((await verify(account.testRoot.secret)).rate_limit_per_second).toBeUndefined();
  });

  it("leaves other accounts at the gateway's default", async () => {
    const [limited, other] = [await identity.createAccount(), await identity.createAccount()];
    await setRateLimit.execute({ accountId: limited.id, perSecond: 3 });
    expect((await identity.verifyApiKey({ key_hash: hashApiKey(other.testRoot.secret) })).rate_limit_per_second).toBeUndefined();
  });

  it('refuses an out-of-range budget and an unknown account, changing nothing', async () => {
    const account = await identity.createAccount();
    await setRateLimit.execute({ accountId: account.id, perSecond: 9 });
    await expect(setRateLimit.execute({ accountId: account.id, perSecond: 0 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'rate_limit_per_second' });
    await expect(setRateLimit.execute({ accountId: 'acct_00000000000000000000000000', perSecond: 5 })).rejects.toMatchObject({ code: 'resource_missing' });
    expect((await identity.prisma.account.findUniqueOrThrow({ where: { id: account.id } })).rate_limit_per_second).toBe(9);
  });

  it('makes every gateway forget the account\'s cached keys when its rate limit or live mode changes, so the change applies on the next request', async () => {
    const account = await identity.createAccount();
    const other = await identity.createAccount();
    const entry = (secret: string) => keyCacheEntry(hashApiKey(secret));
    const cacheAsGateway = (secret: string) => identity.redis.set(entry(secret), JSON.stringify({ cached: 'by a gateway' }));
    const cached = async (secret: string) => (await identity.redis.exists(entry(secret))) === 1;
    /** The key's generation: a gateway that read another before asking identity fills nothing. */
    const generation = (secret: string) => identity.redis.get(keyGenerationEntry(hashApiKey(secret)));

    await cacheAsGateway(account.testRoot.secret);
    await cacheAsGateway(other.testRoot.secret);
    await setRateLimit.execute({ accountId: account.id, perSecond: 3 });
    expect(await cached(account.testRoot.secret)).toBe(false);
    expect(await cached(other.testRoot.secret)).toBe(true);
    expect([await generation(account.testRoot.secret), await generation(other.testRoot.secret)]).toEqual(['1', null]);
    const generationTtl = await identity.redis.ttl(keyGenerationEntry(hashApiKey(account.testRoot.secret)));
    expect(generationTtl).toBeGreaterThan(0);
    expect(generationTtl).toBeLessThanOrEqual(KEY_CACHE_TTL_SECONDS);

    await cacheAsGateway(account.testRoot.secret);
    const live = await new ActivateLiveModeUseCase(identity.prisma, new KeyCache(identity.redis)).execute({ accountId: account.id });
    expect(await cached(account.testRoot.secret)).toBe(false);
    expect(await generation(account.testRoot.secret)).toBe('2');
    await expect(identity.verifyApiKey({ key_hash: hashApiKey(account.testRoot.secret) })).resolves.toMatchObject({ account: { live_mode_activated: true } });
    expect(live.secret).toMatch(/^sk_live_/);
    await identity.redis.del(entry(other.testRoot.secret));
  });
});
