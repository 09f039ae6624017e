import { randomUUID } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl, ensureDatabase } from './database';
import { applyMigrations } from './migration-runner';

const adminUrl = process.env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const createdDatabases: string[] = [];
const createdDirs: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `migration_runner_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await ensureDatabase(adminUrl, name);
  createdDatabases.push(name);
  return databaseUrl(adminUrl, name);
}

async function migrationsDir(migrations: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-'));
  createdDirs.push(dir);
  for (const [name, sql] of Object.entries(migrations)) await writeMigration(dir, name, sql);
  return dir;
}

async function writeMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

async function query<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const recordedNames = async (url: string): Promise<string[]> =>
  (await query<{ migration_name: string }>(url, 'SELECT migration_name FROM _prisma_migrations ORDER BY migration_name')).map(
    (row) => row.migration_name,
  );

// Written out of order on purpose: the runner must sort by name, and 002 depends on 001.
const THREE_MIGRATIONS = {
  '20240103000000_add_price': 'ALTER TABLE event ADD COLUMN price_cents integer NOT NULL DEFAULT 0;',
  '20240101000000_init': 'CREATE TABLE event (id text PRIMARY KEY);',
  '20240102000000_seed': "INSERT INTO event (id) VALUES ('e1');",
};

afterAll(async () => {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const name of createdDatabases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  await Promise.all(createdDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('applyMigrations', () => {
  it('applies pending migrations in name order and records them as Prisma does', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(THREE_MIGRATIONS);

    const result = await applyMigrations(url, dir);

    expect(result.applied).toEqual(['20240101000000_init', '20240102000000_seed', '20240103000000_add_price']);
    expect(await query(url, 'SELECT id, price_cents FROM event')).toEqual([{ id: 'e1', price_cents: 0 }]);
    const records = await query<Record<string, unknown>>(url, 'SELECT * FROM _prisma_migrations ORDER BY migration_name');
    expect(records).toHaveLength(3);
    for (const record of records) {
      expect(record).toMatchObject({ logs: null, rolled_back_at: null, applied_steps_count: 1 });
      expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(record.finished_at).toBeInstanceOf(Date);
    }
  });

  it('applies nothing on a second run', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(THREE_MIGRATIONS);
    await applyMigrations(url, dir);

    expect(await applyMigrations(url, dir)).toEqual({ applied: [] });
    expect(await recordedNames(url)).toHaveLength(3);
  });

  it('applies only the new migration once more are added', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(THREE_MIGRATIONS);
    await applyMigrations(url, dir);
    await writeMigration(dir, '20240104000000_add_venue', 'ALTER TABLE event ADD COLUMN venue text;');

    expect(await applyMigrations(url, dir)).toEqual({ applied: ['20240104000000_add_venue'] });
  });

  it('applies each migration exactly once when two runners race', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(THREE_MIGRATIONS);

    const [first, second] = await Promise.all([applyMigrations(url, dir), applyMigrations(url, dir)]);

    expect([...first.applied, ...second.applied].sort()).toEqual(Object.keys(THREE_MIGRATIONS).sort());
    expect(await recordedNames(url)).toEqual(Object.keys(THREE_MIGRATIONS).sort());
  });

  it('refuses to run when an applied migration was edited', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir(THREE_MIGRATIONS);
    await applyMigrations(url, dir);
    await writeMigration(dir, '20240101000000_init', 'CREATE TABLE event (id text PRIMARY KEY, name text);');

    await expect(applyMigrations(url, dir)).rejects.toThrow(
      /Migration 20240101000000_init was changed after it was applied.*new migration/s,
    );
  });

  it('rolls back a failing migration and does not record it', async () => {
    const url = await freshDatabase();
    const dir = await migrationsDir({
      '20240101000000_init': 'CREATE TABLE event (id text PRIMARY KEY);',
      '20240102000000_broken': 'CREATE TABLE venue (id text PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);',
    });

    await expect(applyMigrations(url, dir)).rejects.toThrow(/Migration 20240102000000_broken failed and was rolled back/);

    expect(await recordedNames(url)).toEqual(['20240101000000_init']);
    expect(await query(url, "SELECT to_regclass('venue') AS venue")).toEqual([{ venue: null }]);
  });

  it('fails clearly when the migrations directory does not exist', async () => {
    const url = await freshDatabase();
    const missing = path.join(os.tmpdir(), `no-migrations-${randomUUID()}`);

    await expect(applyMigrations(url, missing)).rejects.toThrow(`Migrations directory ${missing} does not exist.`);
  });
});

describe('ensureDatabase', () => {
  it('creates a database once even when called concurrently', async () => {
    const name = `migration_runner_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    createdDatabases.push(name);

    await Promise.all([ensureDatabase(adminUrl, name), ensureDatabase(adminUrl, name), ensureDatabase(adminUrl, name)]);

    expect(await query(databaseUrl(adminUrl, name), 'SELECT current_database() AS name')).toEqual([{ name }]);
  });

  it('rejects names that are not plain lowercase identifiers', async () => {
    await expect(ensureDatabase(adminUrl, 'Robert"; DROP DATABASE postgres; --')).rejects.toThrow(/Invalid database name/);
  });
});

describe('databaseUrl', () => {
  it('replaces only the database in the URL', () => {
    expect(databaseUrl('postgresql://app:secret@db.local:5433/postgres?sslmode=disable', 'tickets')).toBe(
      'postgresql://app:secret@db.local:5433/tickets?sslmode=disable',
    );
  });
});
