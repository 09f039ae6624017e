import { Client } from 'pg';

/** Also keeps the name safe to interpolate into CREATE DATABASE, which cannot take parameters. */
const DATABASE_NAME = /^[a-z][a-z0-9_]*$/;
const MAX_IDENTIFIER_LENGTH = 63;

/** SQLSTATEs a concurrent CREATE DATABASE of the same name can fail with. */
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

/** Creates `databaseName` on the server behind `adminUrl` unless it exists. Safe under concurrent callers. */
export async function ensureDatabase(adminUrl: string, databaseName: string): Promise<void> {
  assertDatabaseName(databaseName);
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (existing.rowCount === 0) await createDatabase(client, databaseName);
  } finally {
    await client.end();
  }
}

/** `baseUrl` pointed at another database on the same server, keeping credentials and query options. */
export function databaseUrl(baseUrl: string, databaseName: string): string {
  assertDatabaseName(databaseName);
  const url = new URL(baseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function createDatabase(client: Client, databaseName: string): Promise<void> {
  try {
    await client.query(`CREATE DATABASE "${databaseName}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
  }
}

function assertDatabaseName(databaseName: string): void {
  if (!DATABASE_NAME.test(databaseName) || databaseName.length > MAX_IDENTIFIER_LENGTH) {
    throw new Error(
      `Invalid database name "${databaseName}": use lowercase letters, digits and underscores, ` +
        `starting with a letter, at most ${MAX_IDENTIFIER_LENGTH} characters.`,
    );
  }
}
