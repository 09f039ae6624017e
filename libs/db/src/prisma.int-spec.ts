import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl, ensureDatabase } from './database';
import { prismaClientOptions } from './prisma';

const adminUrl = process.env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * Prisma's driver adapter, built as every service builds it, against a database whose server
 * ends its connections again and again (as a restart, a failover or `pg_terminate_backend` do).
 */
describe("a service's database connections ended by the server", () => {
  const name = `connection_loss_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = databaseUrl(adminUrl, name);
  let admin: Client;

  beforeAll(async () => {
    await ensureDatabase(adminUrl, name);
    admin = new Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin.end();
    const server = new Client({ connectionString: adminUrl });
    await server.connect();
    try {
      await server.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await server.end();
    }
  });

  it('fail the statements that used them, and the process goes on with new ones', async () => {
    const adapter = await prismaClientOptions(url).adapter.connect();
    const uncaught: unknown[] = [];
    const recordUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', recordUncaught);
    let ending = true;
    const transactions = async () => {
      while (ending) {
        const transaction = await adapter.startTransaction().catch(() => null);
        if (!transaction) continue;
        await transaction.executeRaw({ sql: 'SELECT 1', args: [], argTypes: [] }).catch(() => undefined);
        await transaction.commit();
      }
    };
    try {
      const running = Array.from({ length: 20 }, transactions);
      for (let round = 0; round < 200; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 5 + (round % 4) * 5));
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      }
      ending = false;
      await Promise.all(running);
      expect(uncaught).toEqual([]);
      expect((await adapter.queryRaw({ sql: 'SELECT 1 AS one', args: [], argTypes: [] })).rows).toEqual([[1]]);
    } finally {
      ending = false;
      process.off('uncaughtException', recordUncaught);
      await adapter.dispose();
    }
  }, 60_000);
});
