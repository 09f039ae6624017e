import { newId } from '@ticketing/ids';
import { EventRepository } from '../src/repositories/event.repository';
import { useCatalogDatabase } from './support/catalog-database';

/** Catalog's queries are prepared once per connection (libs/db statement-names.ts), not parsed and planned on every call. */
describe('prepared statements (real PostgreSQL)', () => {
  const catalog = useCatalogDatabase();

  it('keeps the event read prepared in the connection that ran it', async () => {
    const tenant = { accountId: newId('acct'), mode: 'test' as const };
    // One interactive transaction holds one connection, so the session's prepared statements are the ones it ran.
    const prepared = await catalog.prisma.$transaction(async (tx) => {
      await new EventRepository(tx).findById(tenant, newId('evt'));
      return tx.$queryRaw<Array<{ name: string; statement: string }>>`SELECT name, statement FROM pg_prepared_statements`;
    });
    const eventRead = prepared.find((row) => row.statement.includes('FROM events e WHERE e.id = $1'));
    expect(eventRead?.name).toMatch(/^prisma_/);
  });
});
