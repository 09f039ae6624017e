import { IDEMPOTENCY_RECORD_RETENTION_MS, startIdempotencySweeper, sweepIdempotencyRecords } from '@ticketing/db';
import { createLogger } from '@ticketing/observability';
import { waitFor } from '@ticketing/testing';
import { useCatalogDatabase } from './support/catalog-database';

/** Expired records of idempotent writes are deleted (libs/db idempotency-sweeper.ts, decision 0025). */
describe('idempotency record sweeper (real PostgreSQL, catalog migrations)', () => {
  const catalog = useCatalogDatabase();

  beforeEach(() => catalog.prisma.$executeRaw`DELETE FROM idempotency_keys`);

  /** `count` records of `account`, created `ageHours` ago. */
  const insertRecords = (account: string, count: number, ageHours: number) =>
    catalog.prisma.$executeRaw`
      INSERT INTO idempotency_keys (account_id, mode, operation, key_hash, fingerprint, result, created_at)
      SELECT ${account}, 'test', 'CreateEvent', 'hash-' || n, 'fingerprint', '\\x00'::bytea, now() - make_interval(hours => ${ageHours})
      FROM generate_series(1, ${count}) AS n`;
  const recordsOf = async (account: string) => Number((await catalog.prisma.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) FROM idempotency_keys WHERE account_id = ${account}`)[0]!.count);

  it('deletes every record older than the cut-off, over several batches, and keeps the rest', async () => {
    await insertRecords('acct_old', 2_500, 24 * 8);
    await insertRecords('acct_recent', 3, 1);
    const deleted = await sweepIdempotencyRecords(catalog.prisma, new Date(Date.now() - IDEMPOTENCY_RECORD_RETENTION_MS));
    expect(deleted).toBe(2_500);
    expect(await recordsOf('acct_old')).toBe(0);
    expect(await recordsOf('acct_recent')).toBe(3);
  });

  it('sweeps as soon as it starts, with the retention it is given', async () => {
    await insertRecords('acct_expired', 2, 2);
    await insertRecords('acct_kept', 2, 0);
    const sweeper = startIdempotencySweeper(catalog.prisma, createLogger('sweeper-test', 'silent'), { retentionMs: 60 * 60 * 1000 });
    try {
      await waitFor('expired records to go', async () => ((await recordsOf('acct_expired')) === 0 ? true : undefined));
    } finally {
      await sweeper.stop();
    }
    expect(await recordsOf('acct_kept')).toBe(2);
  });
});
