import path from 'node:path';
import { newId } from '@ticketing/ids';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma, type PrismaClient } from '../src/db';
import { UpgradeRepository } from '../src/repositories/upgrade.repository';

/**
 * The sweep that lets go of tickets taken for upgrades never recorded runs every ten seconds
 * over every tenant's tickets, in a database whose statistics may be missing (autovacuum off, a
 * table just filled): it must find the few taken tickets through their partial index, never by
 * reading the whole table.
 */
describe('letting go of tickets taken for unrecorded upgrades (real PostgreSQL)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  const tenant = { accountId: newId('acct'), mode: 'test' as const };
  const TICKETS = 20_000;

  beforeAll(async () => {
    database = await createTestDatabase('ticketing_upgrade_sweep', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(database.url);
    const customerId = newId('cus');
    const issuanceId = newId('iss');
    await prisma.$executeRaw`INSERT INTO customers (id, account_id, mode, email) VALUES (${customerId}, ${tenant.accountId}, ${tenant.mode}, 'buyer@example.com')`;
    await prisma.$executeRaw`INSERT INTO issuances (id, account_id, mode, event_id, tier_id, customer_id, kind, quantity, payment_type, amount, currency, status)
      VALUES (${issuanceId}, ${tenant.accountId}, ${tenant.mode}, 'evt_1', 'tier_1', ${customerId}, 'sale', ${TICKETS}, 'external', 0, 'EUR', 'issued')`;
    // Many tickets, none taken, and no statistics: the table as it is before its first analysis.
    await prisma.$executeRaw`INSERT INTO tickets (id, account_id, mode, event_id, tier_id, issuance_id, position, customer_id, status, price, currency, code, reservation_id)
      SELECT 'tkt_' || lpad(n::text, 26, '0'), ${tenant.accountId}, ${tenant.mode}, 'evt_1', 'tier_1', ${issuanceId}, n, ${customerId}, 'valid', 0, 'EUR', 'code', ${issuanceId}
        FROM generate_series(1, ${TICKETS}) AS n`;
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  it('frees a ticket taken long ago for an upgrade never recorded, through the index of taken tickets', async () => {
    const abandoned = 'tkt_' + '1'.padStart(26, '0');
    await prisma.$executeRaw`UPDATE tickets SET pending_change_id = ${newId('tch')} WHERE id = ${abandoned}`;

    // One interactive transaction holds one connection, so its statistics are the sweep's own.
    const { freed, scans } = await prisma.$transaction(async (tx) => {
      const freed = await new UpgradeRepository(tx).letGoUnrecorded(new Date(Date.now() + 60_000));
      const [scans] = await tx.$queryRaw<Array<{ seq_scan: bigint; idx_scan: bigint }>>`
        SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = 'tickets'`;
      return { freed, scans: scans! };
    });

    expect(freed).toBe(1);
    expect(await prisma.ticket.findUniqueOrThrow({ where: { id: abandoned }, select: { pending_change_id: true } })).toEqual({ pending_change_id: null });
    expect(scans.seq_scan).toBe(0n);
    expect(scans.idx_scan).toBeGreaterThan(0n);
  });
});
