import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../../src/db';

/**
 * A fresh database with catalog's migrations for the calling test file, and a Prisma client on
 * it: created before the file's tests, dropped after them. Read `prisma` inside hooks and tests.
 */
export function useCatalogDatabase(): { readonly prisma: PrismaClient; readonly url: string } {
  let database: TestDatabase;
  let prisma: PrismaClient;
  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });
  return {
    get prisma() {
      return prisma;
    },
    get url() {
      return database.url;
    },
  };
}
