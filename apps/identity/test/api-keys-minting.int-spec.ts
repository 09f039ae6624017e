import { status as GrpcStatus } from '@grpc/grpc-js';
import { ALL_SCOPES, hashApiKey, signInternalToken } from '@ticketing/auth';
import { IdentityHarness, tokenSecret, type TestAccount } from './support/identity-harness';

describe('identity: accounts, minting and verification (real PostgreSQL, Redis and gRPC)', () => {
  let identity: IdentityHarness;

  beforeAll(async () => {
    identity = await IdentityHarness.start();
  });

  afterAll(async () => {
    await identity.stop();
  });

  describe('the account a verified key carries', () => {
    it("is the key's account in the key's mode, as GET /v1/account shows it", async () => {
      const account = await identity.createAccount({ live: true });
      const verify = (secret: string) => identity.verifyApiKey({ key_hash: hashApiKey(secret) });
      await expect(verify(account.testRoot.secret)).resolves.toMatchObject({ account: { id: account.id, name: 'Test account', mode: 'test', live_mode_activated: true } });
      await expect(verify(account.liveRoot!.secret)).resolves.toMatchObject({ account: { id: account.id, mode: 'live' } });
    });
  });

  describe('CreateApiKey', () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await identity.createAccount();
    });

    it('mints a secret key of the caller’s mode by default and returns its plaintext once', async () => {
      const created = await identity.createApiKey(account.testRoot.claims, { label: 'door scanners', scopes: ['scanning:write'] });
      expect(created.key).toMatchObject({ label: 'door scanners', scopes: ['scanning:write'], mode: 'test', kind: 'secret', revoked_at: '' });
      expect(created.key!.id).toMatch(/^key_/);
      expect(created.secret).toMatch(/^sk_test_/);
      expect(created.secret.startsWith(created.key!.prefix)).toBe(true);
      const principal = await identity.verifyApiKey({ key_hash: hashApiKey(created.secret) });
      expect(principal).toEqual({
        key_id: created.key!.id,
        prefix: created.key!.prefix,
        account_id: account.id,
        mode: 'test',
        kind: 'secret',
        scopes: ['scanning:write'],
        revoked: false,
        // What the gateway answers GET /v1/account with, from its key cache.
        account: { id: account.id, name: 'Test account', mode: 'test', live_mode_activated: false, created_at: expect.any(String) },
      });
    });

    it('mints publishable keys with checkout scopes only', async () => {
      const created = await identity.createApiKey(account.testRoot.claims, { label: 'web', scopes: ['checkout:read', 'checkout:write'], kind: 'publishable' });
      expect(created.secret).toMatch(/^pk_test_/);
      expect(created.key).toMatchObject({ kind: 'publishable', scopes: ['checkout:read', 'checkout:write'] });
      await expect(
        identity.createApiKey(account.testRoot.claims, { label: 'web', scopes: ['checkout:read', 'events:read'], kind: 'publishable' }),
      ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'scopes[1]', status: 400 });
    });

    it.each([
      [{ label: '', scopes: ['events:read'] }, 'parameter_missing', 'label'],
      [{ label: 'x'.repeat(101), scopes: ['events:read'] }, 'parameter_invalid', 'label'],
      [{ label: 'x', scopes: [] }, 'parameter_missing', 'scopes'],
      [{ label: 'x', scopes: ['events:read', 'events:destroy'] }, 'parameter_invalid', 'scopes[1]'],
      [{ label: 'x', scopes: ['events:read'], mode: 'production' }, 'parameter_invalid', 'mode'],
      [{ label: 'x', scopes: ['events:read'], kind: 'restricted' }, 'parameter_invalid', 'kind'],
    ])('refuses invalid input %j with a 400 naming the parameter', async (request, code, param) => {
      await expect(identity.createApiKey(account.testRoot.claims, request)).rejects.toMatchObject({ code, param, status: 400 });
    });

    it('checks input before any other rule', async () => {
      const narrowTest = await identity.mint(account.id, account.testRoot, { scopes: ['keys:manage'] });
      await expect(identity.createApiKey(narrowTest.claims, { label: '', scopes: ['events:write'], mode: 'live' })).rejects.toMatchObject({ code: 'parameter_missing' });
    });

    it('refuses live keys while live mode is not activated, to a test and to a live caller alike', async () => {
      await expect(identity.createApiKey(account.testRoot.claims, { label: 'x', scopes: ['events:read'], mode: 'live' })).rejects.toMatchObject({
        code: 'mode_unavailable',
        status: 403,
      });
      // The gateway's word is all identity has: a live-mode caller on an account not (or no longer) activated.
      const liveCaller = { ...account.testRoot.claims, tenant: { account_id: account.id, mode: 'live' as const } };
      for (const mode of ['live', '']) {
        await expect(identity.createApiKey(liveCaller, { label: 'x', scopes: ['events:read'], mode })).rejects.toMatchObject({ code: 'mode_unavailable', status: 403 });
      }
    });

    it('never lets a test key mint a live key; a live key mints either mode', async () => {
      const live = await identity.createAccount({ live: true });
      await expect(identity.createApiKey(live.testRoot.claims, { label: 'x', scopes: ['events:read'], mode: 'live' })).rejects.toMatchObject({
        code: 'mode_not_allowed',
        status: 403,
      });
      const fromLive = await identity.createApiKey(live.liveRoot!.claims, { label: 'x', scopes: ['events:read'] });
      expect(fromLive.secret).toMatch(/^sk_live_/);
      expect(fromLive.key).toMatchObject({ mode: 'live' });
      const publishable = await identity.createApiKey(live.liveRoot!.claims, { label: 'web', scopes: ['checkout:read'], kind: 'publishable' });
      expect(publishable.secret).toMatch(/^pk_live_/);
      expect((await identity.createApiKey(live.liveRoot!.claims, { label: 'x', scopes: ['events:read'], mode: 'test' })).secret).toMatch(/^sk_test_/);
    });

    it('mints only scopes the calling key holds, naming the missing ones', async () => {
      const narrow = await identity.mint(account.id, account.testRoot, { scopes: ['events:read', 'keys:manage', 'payouts:claim'] });
      await expect(identity.createApiKey(narrow.claims, { label: 'x', scopes: ['events:read', 'events:write', 'tickets:read'] })).rejects.toMatchObject({
        code: 'scope_not_held',
        status: 403,
        message: expect.stringContaining('events:write, tickets:read'),
      });
      // payouts:claim implies payouts:read.
      const sub = await identity.createApiKey(narrow.claims, { label: 'x', scopes: ['events:read', 'payouts:read'] });
      expect(sub.key!.scopes).toEqual(['events:read', 'payouts:read']);
    });

    it('refuses a call whose token carries no tenant or no key', async () => {
      await expect(identity.createApiKey({ request_id: 'req_x' }, { label: 'x', scopes: ['events:read'] })).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
      const noKey = { ...account.testRoot.claims, key: undefined };
      await expect(identity.createApiKey(noKey, { label: 'x', scopes: ['events:read'] })).rejects.toMatchObject({ code: 'invalid_api_key' });
    });
  });

  describe('VerifyApiKey', () => {
    it('resolves a key by its hash with a token that has no tenant, and reports NOT_FOUND for unknown hashes', async () => {
      const account = await identity.createAccount();
      await expect(identity.verifyApiKey({ key_hash: hashApiKey(account.testRoot.secret) })).resolves.toMatchObject({
        account_id: account.id,
        kind: 'secret',
        mode: 'test',
        scopes: [...ALL_SCOPES],
        revoked: false,
      });
      await expect(identity.verifyApiKey({ key_hash: hashApiKey('sk_test_never-minted-0000000000') })).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
      await expect(identity.rawVerifyApiKey('0'.repeat(64), signInternalToken({}, tokenSecret))).rejects.toMatchObject({
        code: GrpcStatus.NOT_FOUND,
      });
    });
  });

  describe('internal token', () => {
    it('refuses calls without a token or with a token signed by another secret', async () => {
      const account = await identity.createAccount();
      const hash = hashApiKey(account.testRoot.secret);
      const forged = signInternalToken(account.testRoot.claims, 'some-other-secret-0123456789');
      for (const token of [undefined, forged, 'not-a-token']) {
        await expect(identity.rawListApiKeys(token)).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
        await expect(identity.rawVerifyApiKey(hash, token)).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
      }
      await expect(identity.rawListApiKeys(signInternalToken(account.testRoot.claims, tokenSecret))).resolves.toMatchObject({ data: [expect.objectContaining({ id: account.testRoot.record.id })] });
    });
  });

  describe('stored keys', () => {
    it('hold no plaintext key in any text column', async () => {
      const account = await identity.createAccount({ live: true });
      const minted = await identity.createApiKey(account.testRoot.claims, { label: 'reader', scopes: ['events:read'] });
      const publishable = await identity.createApiKey(account.liveRoot!.claims, { label: 'web', scopes: ['checkout:write'], kind: 'publishable' });
      const secrets = [account.testRoot.secret, account.liveRoot!.secret, minted.secret, publishable.secret];

      const columns = await identity.prisma.$queryRaw<Array<{ column_name: string }>>`
        SELECT column_name FROM information_schema.columns
        WHERE table_name = 'api_keys' AND (data_type IN ('text', 'character varying') OR udt_name IN ('_text', '_varchar'))`;
      expect(columns.map((column) => column.column_name)).toEqual(expect.arrayContaining(['prefix', 'key_hash', 'label', 'scopes']));
      const hitsOf = async (column: string, fragment: string) =>
        (
          await identity.prisma.$queryRawUnsafe<Array<{ hits: number }>>(
            `SELECT count(*)::int AS hits FROM api_keys WHERE strpos("${column}"::text, $1) > 0`,
            fragment,
          )
        )[0]!.hits;
      // The search does find what is there: the public prefix is stored by design.
      expect(await hitsOf('prefix', minted.key!.prefix)).toBe(1);
      for (const secret of secrets) {
        // The prefix is stored by design; neither the whole key nor its secret remainder may be.
        const fragments = [secret, secret.slice(20)];
        for (const { column_name } of columns) {
          for (const fragment of fragments) {
            expect({ column_name, hits: await hitsOf(column_name, fragment) }).toEqual({ column_name, hits: 0 });
          }
        }
        const rows = await identity.prisma.$queryRaw<Array<{ row: string }>>`SELECT row_to_json(k)::text AS row FROM api_keys k WHERE key_hash = ${hashApiKey(secret)}`;
        expect(rows).toHaveLength(1);
        expect(rows[0]!.row).not.toContain(secret.slice(20));
      }
    });
  });
});
