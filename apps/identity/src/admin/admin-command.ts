import { parseArgs } from 'node:util';

export const ADMIN_USAGE = `usage:
  npm run --silent admin -- account create --name <name>
      creates an account and prints {"account_id", "secret_key"} with its test-mode root key
  npm run --silent admin -- account activate-live --account <acct_id>
      activates live mode (idempotent) and prints {"account_id", "secret_key"} with a new live root key`;

export type AdminCommand =
  | { command: 'account create'; name: string }
  | { command: 'account activate-live'; accountId: string }
  | { command: 'help' };

/** Arguments the command line cannot make sense of (exit code 2). */
export class UsageError extends Error {}

/** Reads the operator's arguments; touches nothing, so a typo never needs the database. */
export function parseAdminCommand(argv: readonly string[]): AdminCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { name: { type: 'string' }, account: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { positionals, values } = parsed;
  if (values.help) return { command: 'help' };
  const command = positionals.join(' ');
  switch (command) {
    case 'account create':
      if (values.account !== undefined) throw new UsageError("'account create' takes no --account");
      if (values.name === undefined) throw new UsageError("'account create' needs --name <name>");
      return { command, name: values.name };
    case 'account activate-live':
      if (values.name !== undefined) throw new UsageError("'account activate-live' takes no --name");
      if (values.account === undefined || values.account === '') throw new UsageError("'account activate-live' needs --account <acct_id>");
      return { command, accountId: values.account };
    default:
      throw new UsageError(command === '' ? 'no command given' : `unknown command '${command}'`);
  }
}
