import path from 'node:path';
import { newId } from '@ticketing/ids';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { EventRepository } from '../src/repositories/event.repository';

/** Catalog's queries are prepared once per connection (libs/db statement-names.ts), not parsed and planned on every call. */
describe('prepared statements (real PostgreSQL)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  it('keeps the event read prepared in the connection that ran it', async () => {
    const tenant = { accountId: newId('acct'), mode: 'test' as const };
    // One interactive transaction holds one connection, so the session's prepared statements are the ones it ran.
    const prepared = await prisma.$transaction(async (tx) => {
      await new EventRepository(tx).findById(tenant, newId('evt'));
      return tx.$queryRaw<Array<{ name: string; statement: string }>>`SELECT name, statement FROM pg_prepared_statements`;
    });
    const eventRead = prepared.find((row) => row.statement.includes('FROM "public"."events"'));
    expect(eventRead?.name).toMatch(/^prisma_/);
  });
});
