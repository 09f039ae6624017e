import { Client } from 'pg';
import { isDatabaseUnavailable } from '@ticketing/db';
import { createEmptyTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma } from '../src/db';

/**
 * What ticketing's Prisma client throws when the server ends its connections (a restart, a
 * failover, `pg_terminate_backend`): every such failure must read as the database not answering,
 * so the caller is told 503 and retries, not 500 (decision 0044).
 */
describe('statements whose database connection the server ended', () => {
  let database: TestDatabase;
  let admin: Client;

  beforeAll(async () => {
    database = await createEmptyTestDatabase('ticketing_unavailable');
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin.end();
    await database.drop();
  });

  it('fail with errors that say the database did not answer', async () => {
    const prisma = createTicketingPrisma(database.url);
    const failures: unknown[] = [];
    let ending = true;
    const statements = async () => {
      while (ending) {
        await prisma.$transaction(async (tx) => (await tx.$queryRaw`SELECT 1`, tx.$executeRaw`SELECT 2`)).catch((error: unknown) => failures.push(error));
        await prisma.$queryRaw`SELECT 3`.catch((error: unknown) => failures.push(error));
      }
    };
    try {
      const running = Array.from({ length: 10 }, statements);
      for (let round = 0; round < 60; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10 + (round % 3) * 10));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      }
      ending = false;
      await Promise.all(running);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((failure) => !isDatabaseUnavailable(failure)).map(String)).toEqual([]);
    } finally {
      ending = false;
      await prisma.$disconnect();
    }
  }, 60_000);
});
