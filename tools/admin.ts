/**
 * Operators' entry point: `npm run --silent admin -- account create --name Acme`.
 * Prepares identity's database quietly (created, migrated, Prisma client generated if missing),
 * then runs apps/identity's admin CLI. Only the command's JSON result goes to stdout.
 */
import { redisUrl } from '@ticketing/config';
import { createLogger } from '@ticketing/observability';
import { connectRedis } from '@ticketing/redis';
import { generatePrismaClient, prepareServiceDatabase } from './setup';

async function main(): Promise<number> {
  // The CLI imports the generated client, so it must exist before the CLI is loaded.
  generatePrismaClient('identity');
  const { runAdminCli } = await import('../apps/identity/src/admin/admin-cli.js');
  return runAdminCli(process.argv.slice(2), {
    database: async () => (await prepareServiceDatabase('identity')).url,
    // Silent: stdout carries only the command's JSON; a Redis failure fails the command instead.
    redis: () => connectRedis(redisUrl.parse(process.env.REDIS_URL), createLogger('admin', 'silent')),
  });
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
