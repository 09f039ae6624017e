/**
 * Operators' entry point: `npm run --silent admin -- account create --name Acme`.
 * Prepares identity's database quietly (created, migrated, Prisma client generated if missing),
 * then runs apps/identity's admin CLI. Only the command's JSON result goes to stdout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName } from '@ticketing/config';
import { applyMigrations, databaseUrl, ensureDatabase } from '@ticketing/db';

const repoRoot = path.resolve(__dirname, '..');
const identityDir = path.join(repoRoot, 'apps/identity');

/** The CLI imports the generated client, so it must exist before the CLI is loaded. */
function ensurePrismaClient(): void {
  if (existsSync(path.join(identityDir, 'src/generated/prisma/client.ts'))) return;
  execFileSync(path.join(repoRoot, 'node_modules/.bin/prisma'), ['generate', '--schema', path.join(identityDir, 'prisma/schema.prisma')], {
    cwd: repoRoot,
    stdio: 'pipe',
    // Generation never uses the schema engine; pointing at any file stops Prisma downloading it.
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(repoRoot, 'package.json'), PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
}

async function prepareIdentityDatabase(): Promise<string> {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const name = defaultDatabaseName('identity');
  await ensureDatabase(adminUrl, name);
  const url = databaseUrl(adminUrl, name);
  await applyMigrations(url, path.join(identityDir, 'prisma/migrations'));
  return url;
}

async function main(): Promise<number> {
  ensurePrismaClient();
  const { runAdminCli } = await import('../apps/identity/src/admin/admin-cli.js');
  return runAdminCli(process.argv.slice(2), { database: prepareIdentityDatabase });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
