import { Client } from 'pg';
import { isDatabaseUnavailable } from '@ticketing/db';
import { createEmptyTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma } from '../src/db';

/**
 * Ticketing's Prisma client, built as every service's is (libs/db), against a database whose
 * server ends its connections again and again, as a restart, a failover or `pg_terminate_backend`
 * do (decision 0044).
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

  it('fail with errors that say the database did not answer (a 503, not a 500), and the process goes on with new connections', async () => {
    const prisma = createTicketingPrisma(database.url);
    const failures: unknown[] = [];
    const uncaught: unknown[] = [];
    const recordUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', recordUncaught);
    let ending = true;
    const statements = async () => {
      while (ending) {
        await prisma.$transaction(async (tx) => (await tx.$queryRaw`SELECT 1`, tx.$executeRaw`SELECT 2`)).catch((error: unknown) => failures.push(error));
        await prisma.$queryRaw`SELECT 3`.catch((error: unknown) => failures.push(error));
      }
    };
    try {
      const running = Array.from({ length: 20 }, statements);
      for (let round = 0; round < 200; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5 + (round % 4) * 5));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      }
      ending = false;
      await Promise.all(running);
      // Before, a connection ended between its check-out for a transaction and Prisma's listener exited the process.
      expect(uncaught).toEqual([]);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((failure) => !isDatabaseUnavailable(failure)).map(String)).toEqual([]);
      expect(await prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    } finally {
      ending = false;
      process.off('uncaughtException', recordUncaught);
      await prisma.$disconnect();
    }
  }, 60_000);
});
