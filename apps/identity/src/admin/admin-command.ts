import { parseArgs } from 'node:util';

export const ADMIN_USAGE = `usage:
  npm run --silent admin -- account create --name <name>
      creates an account and prints {"account_id", "secret_key"} with its test-mode root key
  npm run --silent admin -- account activate-live --account <acct_id>
      activates live mode (idempotent) and prints {"account_id", "secret_key"} with a new live root key
  npm run --silent admin -- account set-rate-limit --account <acct_id> --per-second <n|default>
      sets the account's requests-per-second budget in each mode (default: the gateway's own)
      and prints {"account_id", "rate_limit_per_second"}`;

export type AdminCommand =
  | { command: 'account create'; name: string }
  | { command: 'account activate-live'; accountId: string }
  | { command: 'account set-rate-limit'; accountId: string; perSecond: number | null }
  | { command: 'help' };

/** Arguments the command line cannot make sense of (exit code 2). */
export class UsageError extends Error {}

/** `default` clears the override; the range is the domain's rule, checked by the use case. */
function parsePerSecond(value: string | undefined): number | null {
  if (value === 'default') return null;
  if (value === undefined || !/^\d+$/.test(value)) throw new UsageError("'account set-rate-limit' needs --per-second <whole number|default>");
  return Number(value);
}

/** Refuses the first option given that the command does not take. */
function refuseOptionsOtherThan(command: string, values: Record<string, unknown>, takes: readonly string[]): void {
  const extra = Object.keys(values).find((option) => values[option] !== undefined && !takes.includes(option));
  if (extra !== undefined) throw new UsageError(`'${command}' takes no --${extra}`);
}

/** Reads the operator's arguments; touches nothing, so a typo never needs the database. */
export function parseAdminCommand(argv: readonly string[]): AdminCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { name: { type: 'string' }, account: { type: 'string' }, 'per-second': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { positionals, values } = parsed;
  if (values.help) return { command: 'help' };
  const command = positionals.join(' ');
  switch (command) {
    case 'account create':
      refuseOptionsOtherThan(command, values, ['name']);
      if (values.name === undefined) throw new UsageError("'account create' needs --name <name>");
      return { command, name: values.name };
    case 'account activate-live':
      refuseOptionsOtherThan(command, values, ['account']);
      if (values.account === undefined || values.account === '') throw new UsageError("'account activate-live' needs --account <acct_id>");
      return { command, accountId: values.account };
    case 'account set-rate-limit':
      refuseOptionsOtherThan(command, values, ['account', 'per-second']);
      if (values.account === undefined || values.account === '') throw new UsageError("'account set-rate-limit' needs --account <acct_id>");
      return { command, accountId: values.account, perSecond: parsePerSecond(values['per-second']) };
    default:
      throw new UsageError(command === '' ? 'no command given' : `unknown command '${command}'`);
  }
}
