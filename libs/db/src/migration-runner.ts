import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

/** The key `prisma migrate` itself locks on, so this runner and Prisma also exclude each other. */
const PRISMA_ADVISORY_LOCK_KEY = 72707369;

/** Prisma's own DDL for its bookkeeping table, so `prisma migrate deploy` accepts the database later. */
const CREATE_MIGRATIONS_TABLE = `
  CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                  VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum            VARCHAR(64) NOT NULL,
    finished_at         TIMESTAMPTZ,
    migration_name      VARCHAR(255) NOT NULL,
    logs                TEXT,
    rolled_back_at      TIMESTAMPTZ,
    started_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count INTEGER NOT NULL DEFAULT 0
  )`;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies the Prisma-layout migrations in `migrationsDir` (`<timestamp>_<name>/migration.sql`)
 * that the database has not seen yet, in name order, each in its own transaction.
 */
export async function applyMigrations(databaseUrl: string, migrationsDir: string): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(migrationsDir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Session-level, so it spans the per-migration transactions; released on disconnect.
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const pending = selectPending(migrations, await readApplied(client));
    for (const migration of pending) await applyOne(client, migration);
    return { applied: pending.map((migration) => migration.name) };
  } finally {
    await client.end();
  }
}

async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error(`Migrations directory ${migrationsDir} does not exist.`);
    throw error;
  });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  return Promise.all(names.sort().map((name) => readMigration(migrationsDir, name)));
}

async function readMigration(migrationsDir: string, name: string): Promise<Migration> {
  const file = path.join(migrationsDir, name, 'migration.sql');
  const content = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new Error(`Migration ${name} has no migration.sql (expected ${file}).`);
    throw error;
  });
  return { name, sql: content.toString('utf8'), checksum: createHash('sha256').update(content).digest('hex') };
}

/** Rows Prisma marked as rolled back do not count: Prisma applies those migrations again. */
async function readApplied(client: Client): Promise<Map<string, AppliedMigration>> {
  const { rows } = await client.query<AppliedMigration>(
    'SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL',
  );
  return new Map(rows.map((row) => [row.migration_name, row]));
}

function selectPending(migrations: Migration[], applied: Map<string, AppliedMigration>): Migration[] {
  return migrations.filter((migration) => {
    const record = applied.get(migration.name);
    if (record === undefined) return true;
    assertUnchanged(migration, record);
    return false;
  });
}

function assertUnchanged(migration: Migration, record: AppliedMigration): void {
  if (record.finished_at === null) {
    throw new Error(
      `Migration ${migration.name} is recorded in _prisma_migrations as started but never finished ` +
        '(a failed `prisma migrate` run). Repair the schema by hand, then mark it with ' +
        '`prisma migrate resolve --applied` or `--rolled-back`.',
    );
  }
  if (record.checksum !== migration.checksum) {
    throw new Error(
      `Migration ${migration.name} was changed after it was applied (checksum ${record.checksum} in the database, ` +
        `${migration.checksum} on disk). Applied migrations are immutable: restore its migration.sql and put the ` +
        'change in a new migration directory.',
    );
  }
}

async function applyOne(client: Client, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, clock_timestamp(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query('COMMIT');
  } catch (error) {
    // On a broken connection the server rolls back by itself; the migration's error is the one to report.
    await client.query('ROLLBACK').catch(() => undefined);
    throw new Error(
      `Migration ${migration.name} failed and was rolled back, nothing from it was applied: ${(error as Error).message}. ` +
        'Fix its migration.sql and run again.',
      { cause: error },
    );
  }
}
