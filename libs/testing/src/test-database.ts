import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DEFAULT_POSTGRES_URL } from '@ticketing/config';
import { applyMigrations, databaseUrl, ensureDatabase } from '@ticketing/db';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database named `<prefix>_<random>` on the local PostgreSQL. */
export async function createEmptyTestDatabase(prefix: string): Promise<TestDatabase> {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const name = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await ensureDatabase(adminUrl, name);
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A fresh, migrated database for one test file, on the local PostgreSQL. */
export async function createTestDatabase(service: string, migrationsDir: string): Promise<TestDatabase> {
  const database = await createEmptyTestDatabase(`test_${service}`);
  await applyMigrations(database.url, migrationsDir);
  return database;
}
