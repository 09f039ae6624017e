import path from 'node:path';
import { KeyClaimBatches, type RecordScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma, type PrismaClient } from '../src/db';

const LEASE_SECONDS = 60;

/** The key claims EarlyKeyClaims makes together (decision 0055), on ticketing's real idempotency_keys table. */
describe('key claims made together', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let batches: KeyClaimBatches;

  beforeAll(async () => {
    database = await createTestDatabase('ticketing_key_claims', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(database.url);
    batches = new KeyClaimBatches(prisma, LEASE_SECONDS);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  const accountId = () => newId('acct');
  const scopeOf = (account: string, operation = 'issueTickets'): RecordScope => ({ accountId: account, mode: 'test', operation, keyHash: newId('key') });
  /** A key's row as an earlier call left it: `ageSeconds` old, sealed or not, with what it acts on. */
  async function existing(scope: RecordScope, { ageSeconds = 0, sealed = false, actsOn = null as string | null, fingerprint = 'fp' } = {}): Promise<void> {
    await prisma.$executeRaw`INSERT INTO idempotency_keys (account_id, mode, operation, key_hash, fingerprint, result, created_at, acts_on)
      VALUES (${scope.accountId}, ${scope.mode}, ${scope.operation}, ${scope.keyHash}, ${fingerprint}, ${sealed ? Buffer.from('sealed') : null},
              now() - make_interval(secs => ${ageSeconds}), ${actsOn})`;
  }
  const row = async (scope: RecordScope) =>
    (
      await prisma.$queryRaw<Array<{ fingerprint: string; acts_on: string | null; lapsed: boolean }>>`SELECT fingerprint, acts_on, created_at < now() - make_interval(secs => ${LEASE_SECONDS}) AS lapsed
        FROM idempotency_keys WHERE account_id = ${scope.accountId} AND mode = ${scope.mode} AND operation = ${scope.operation} AND key_hash = ${scope.keyHash}`
    )[0] ?? null;

  it('decides each claim of one statement as its own would: new keys and lapsed claims that acted nowhere are taken, nothing else', async () => {
    const account = accountId();
    const [fresh, otherOperation, held, sealed, lapsed, lapsedActing, late] = [
      scopeOf(account),
      scopeOf(account, 'upgradeTicket'),
      scopeOf(account),
      scopeOf(account),
      scopeOf(account),
      scopeOf(account),
      scopeOf(account),
    ];
    await existing(held);
    await existing(sealed, { sealed: true, ageSeconds: 600 });
    await existing(lapsed, { ageSeconds: 600, fingerprint: 'old' });
    await existing(lapsedActing, { ageSeconds: 600, actsOn: 'iss_lapsed' });
    const statements = jest.spyOn(prisma, '$queryRaw');
    let claimed: boolean[];
    try {
      claimed = await Promise.all(
        [fresh, otherOperation, held, sealed, lapsed, lapsedActing].map((scope) => batches.claim({ scope, fingerprint: 'fp', actsOn: 'iss_new', deadline: null })).concat(
          batches.claim({ scope: late, fingerprint: 'fp', actsOn: null, deadline: new Date(Date.now() - 1) }),
        ),
      );
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect(claimed).toEqual([true, true, false, false, true, false, false]);
    expect(await row(fresh)).toEqual({ fingerprint: 'fp', acts_on: 'iss_new', lapsed: false });
    expect(await row(lapsed)).toEqual({ fingerprint: 'fp', acts_on: 'iss_new', lapsed: false });
    expect(await row(held)).toEqual({ fingerprint: 'fp', acts_on: null, lapsed: false });
    expect(await row(lapsedActing)).toMatchObject({ acts_on: 'iss_lapsed', lapsed: true });
    expect(await row(late)).toBeNull();
  });

  it('gives one key claimed twice in one batch to the first claim only, as two statements would', async () => {
    const scope = scopeOf(accountId());
    const claimed = await Promise.all([batches.claim({ scope, fingerprint: 'first', actsOn: null, deadline: null }), batches.claim({ scope, fingerprint: 'second', actsOn: null, deadline: null })]);
    expect(claimed).toEqual([true, false]);
    expect(await row(scope)).toMatchObject({ fingerprint: 'first' });
  });

  it('lapses and releases only unsealed claims of the same request, keeping what a lapsed claim acts on', async () => {
    const account = accountId();
    const [toLapse, toRelease, othersRequest, sealed] = [scopeOf(account), scopeOf(account), scopeOf(account), scopeOf(account)];
    await existing(toLapse, { actsOn: 'iss_1' });
    await existing(toRelease);
    await existing(othersRequest, { fingerprint: 'another' });
    await existing(sealed, { sealed: true });
    await Promise.all([
      batches.lapse({ scope: toLapse, fingerprint: 'fp', actsOn: 'iss_1' }),
      batches.lapse({ scope: othersRequest, fingerprint: 'fp', actsOn: 'iss_2' }),
      batches.release({ scope: toRelease, fingerprint: 'fp' }),
      batches.release({ scope: othersRequest, fingerprint: 'fp' }),
      batches.release({ scope: sealed, fingerprint: 'fp' }),
    ]);
    expect(await row(toLapse)).toEqual({ fingerprint: 'fp', acts_on: 'iss_1', lapsed: true });
    expect(await row(toRelease)).toBeNull();
    expect(await row(othersRequest)).toEqual({ fingerprint: 'another', acts_on: null, lapsed: false });
    expect(await row(sealed)).not.toBeNull();
  });

  it('keeps tenants apart: a claim of one account never takes or gives up another’s key', async () => {
    const mine = scopeOf(accountId());
    const theirs = { ...mine, accountId: accountId() };
    await existing(theirs);
    expect(await batches.claim({ scope: mine, fingerprint: 'fp', actsOn: null, deadline: null })).toBe(true);
    await batches.release({ scope: mine, fingerprint: 'fp' });
    expect(await row(mine)).toBeNull();
    expect(await row(theirs)).toEqual({ fingerprint: 'fp', acts_on: null, lapsed: false });
  });
});
