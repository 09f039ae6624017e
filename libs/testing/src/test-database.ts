import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DEFAULT_POSTGRES_URL } from '@ticketing/config';
import { applyMigrations, databaseUrl, ensureDatabase } from '@ticketing/db';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, on the local PostgreSQL. */
export async function createTestDatabase(service: string, migrationsDir: string): Promise<TestDatabase> {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const name = `test_${service}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await ensureDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  await applyMigrations(url, migrationsDir);
  return {
    url,
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
