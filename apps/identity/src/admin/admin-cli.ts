import { ApiError } from '@ticketing/errors';
import type { RedisClient } from '@ticketing/redis';
import { KeyCache } from '../cache/key-cache';
import { createIdentityPrisma, type PrismaClient } from '../db';
import { ActivateLiveModeUseCase } from '../usecases/activate-live-mode/activate-live-mode.usecase';
import { CreateAccountUseCase, type CreatedAccount } from '../usecases/create-account/create-account.usecase';
import { SetAccountRateLimitUseCase } from '../usecases/set-account-rate-limit/set-account-rate-limit.usecase';
import { ADMIN_USAGE, parseAdminCommand, UsageError, type AdminCommand } from './admin-command';

export interface AdminCliOptions {
  /** Prepares identity's database and answers its URL; called only once the arguments are valid. */
  database: () => Promise<string>;
  /** The Redis of the gateways' key cache, which commands that change an account clear for it. */
  redis: () => Promise<RedisClient>;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * The operators' commands, run with the use cases directly (no gRPC). Prints exactly one JSON
 * object on stdout on success; on failure only a message on stderr. Answers the exit code.
 */
export async function runAdminCli(argv: readonly string[], options: AdminCliOptions): Promise<number> {
  const stdout = options.stdout ?? ((text) => process.stdout.write(text));
  const stderr = options.stderr ?? ((text) => process.stderr.write(text));
  let command: AdminCommand;
  try {
    command = parseAdminCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr(`admin: ${error.message}\n${ADMIN_USAGE}\n`);
    return EXIT_USAGE;
  }
  if (command.command === 'help') {
    stderr(`${ADMIN_USAGE}\n`);
    return EXIT_OK;
  }

  let prisma: PrismaClient | undefined;
  let redis: RedisClient | undefined;
  try {
    prisma = createIdentityPrisma(await options.database());
    redis = await options.redis();
    stdout(`${JSON.stringify(await run(prisma, new KeyCache(redis), command))}\n`);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof ApiError) {
      stderr(`admin: ${error.message}${error.param ? ` (${error.param})` : ''}\n`);
      return error.code === 'parameter_invalid' || error.code === 'parameter_missing' ? EXIT_USAGE : EXIT_FAILURE;
    }
    stderr(`admin: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  } finally {
    await prisma?.$disconnect();
    await redis?.close();
  }
}

function withRootKey(created: CreatedAccount): object {
  return { account_id: created.account.id, secret_key: created.secret };
}

/** Runs the command and answers the one object it prints. */
async function run(prisma: PrismaClient, keyCache: KeyCache, command: Exclude<AdminCommand, { command: 'help' }>): Promise<object> {
  switch (command.command) {
    case 'account create':
      return withRootKey(await new CreateAccountUseCase(prisma).execute({ name: command.name }));
    case 'account activate-live':
      return withRootKey(await new ActivateLiveModeUseCase(prisma, keyCache).execute({ accountId: command.accountId }));
    case 'account set-rate-limit': {
      const account = await new SetAccountRateLimitUseCase(prisma, keyCache).execute(command);
      return { account_id: account.id, rate_limit_per_second: account.rate_limit_per_second };
    }
  }
}
