import { Client } from 'pg';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName, type BackendService } from '@ticketing/config';
import { databaseUrl } from '@ticketing/db';

/** Reads a service's own database, for asserting effects no public endpoint shows yet. */
export async function queryServiceDatabase<T extends Record<string, unknown>>(service: BackendService, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl(process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL, defaultDatabaseName(service)) });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}
