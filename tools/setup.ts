/**
 * Everything the system needs before a service can start, idempotent and safe to repeat:
 * infrastructure up, one database per service, migrations applied, Prisma clients generated.
 * Used by `npm start`, `npm test`, the test suites' global set-up, `npm run setup`, and (for
 * identity's database only) the admin command.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName, type BackendService } from '@ticketing/config';
import { applyMigrations, databaseUrl, ensureDatabase } from '@ticketing/db';
import { ensureInfrastructure, type InfrastructureHandle } from '@ticketing/infra';
import { DATABASE_SERVICES, repoRoot, serviceDir } from './system/services';

/** Prisma refuses to run without a schema engine path; generation never uses the engine. */
const NO_SCHEMA_ENGINE = path.join(repoRoot, 'package.json');

/** Generates the service's Prisma client when its schema (or Prisma) changed since last time. */
export function generatePrismaClient(service: BackendService): void {
  const schema = path.join(serviceDir(service), 'prisma/schema.prisma');
  const output = path.join(serviceDir(service), 'src/generated/prisma');
  const stampFile = path.join(output, '.schema-sha256');
  const prismaVersion = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/prisma/package.json'), 'utf8')).version;
  const stamp = createHash('sha256').update(readFileSync(schema)).update(prismaVersion).digest('hex');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['generate', '--schema', schema], {
    cwd: repoRoot,
    stdio: 'pipe',
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? NO_SCHEMA_ENGINE, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  writeFileSync(stampFile, stamp);
}

/** The service's database exists, is migrated, and its Prisma client matches its schema. */
export async function prepareServiceDatabase(service: BackendService): Promise<{ url: string; applied: string[] }> {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const name = defaultDatabaseName(service);
  await ensureDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  const { applied } = await applyMigrations(url, path.join(serviceDir(service), 'prisma/migrations'));
  generatePrismaClient(service);
  return { url, applied };
}

export async function prepareDatabases(log: (line: string) => void = () => undefined): Promise<void> {
  for (const service of DATABASE_SERVICES) {
    const { applied } = await prepareServiceDatabase(service);
    log(`${service}: database ${defaultDatabaseName(service)} ready${applied.length ? ` (applied ${applied.join(', ')})` : ''}`);
  }
}

export async function setup(log: (line: string) => void = () => undefined): Promise<InfrastructureHandle> {
  const infrastructure = await ensureInfrastructure({ log });
  await prepareDatabases(log);
  return infrastructure;
}

if (require.main === module) {
  setup((line) => console.log(line)).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
