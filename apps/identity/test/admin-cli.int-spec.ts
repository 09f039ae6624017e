import { execFile } from 'node:child_process';
import path from 'node:path';
import { ALL_SCOPES, hashApiKey } from '@ticketing/auth';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName } from '@ticketing/config';
import { databaseUrl } from '@ticketing/db';
import { createIdentityPrisma, type PrismaClient } from '../src/db';

const repoRoot = path.resolve(__dirname, '../../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The operators' command exactly as documented, as its own process. */
function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'tools/admin.ts', ...args], { cwd: repoRoot, env: process.env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** stdout must be exactly one JSON object with exactly these fields. */
function onlyJsonObject(stdout: string): { account_id: string; secret_key: string } {
  expect(stdout.trim().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(stdout);
  expect(Object.keys(parsed).sort()).toEqual(['account_id', 'secret_key']);
  return parsed;
}

describe('admin command (tools/admin.ts, its own process, identity database of POSTGRES_URL)', () => {
  let prisma: PrismaClient;

  beforeAll(() => {
    prisma = createIdentityPrisma(databaseUrl(process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL, defaultDatabaseName('identity')));
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  it('creates an account with an all-scope test root key, then activates live mode with a live root key', async () => {
    const created = await admin('account', 'create', '--name', 'Admin CLI test');
    expect(created).toMatchObject({ code: 0 });
    const { account_id, secret_key } = onlyJsonObject(created.stdout);
    expect(account_id).toMatch(/^acct_/);
    expect(secret_key).toMatch(/^sk_test_/);
    expect(await prisma.apiKey.findUnique({ where: { key_hash: hashApiKey(secret_key) } })).toMatchObject({
      account_id,
      mode: 'test',
      kind: 'secret',
      scopes: [...ALL_SCOPES],
      revoked_at: null,
    });
    expect(await prisma.account.findUnique({ where: { id: account_id } })).toMatchObject({ name: 'Admin CLI test', live_mode_activated: false });

    const first = await admin('account', 'activate-live', '--account', account_id);
    expect(first.code).toBe(0);
    const live = onlyJsonObject(first.stdout);
    expect(live.account_id).toBe(account_id);
    expect(live.secret_key).toMatch(/^sk_live_/);
    const activated = await prisma.account.findUniqueOrThrow({ where: { id: account_id } });
    expect(activated.live_mode_activated).toBe(true);

    // Idempotent activation: the first activation time stays; each run mints a new live root key.
    const second = await admin('account', 'activate-live', '--account', account_id);
    expect(onlyJsonObject(second.stdout).secret_key).not.toBe(live.secret_key);
    expect((await prisma.account.findUniqueOrThrow({ where: { id: account_id } })).live_mode_activated_at).toEqual(activated.live_mode_activated_at);
    expect(await prisma.apiKey.count({ where: { account_id, mode: 'live', kind: 'secret', revoked_at: null } })).toBe(2);
  });

  it("sets an account's rate limit and clears it back to the gateway's default", async () => {
    const { account_id } = onlyJsonObject((await admin('account', 'create', '--name', 'Rate limit CLI test')).stdout);
    const set = await admin('account', 'set-rate-limit', '--account', account_id, '--per-second', '250');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ account_id, rate_limit_per_second: 250 });
    expect((await prisma.account.findUniqueOrThrow({ where: { id: account_id } })).rate_limit_per_second).toBe(250);

    const cleared = await admin('account', 'set-rate-limit', '--account', account_id, '--per-second', 'default');
    expect(JSON.parse(cleared.stdout)).toEqual({ account_id, rate_limit_per_second: null });
    expect((await prisma.account.findUniqueOrThrow({ where: { id: account_id } })).rate_limit_per_second).toBeNull();
  });

  it.each([
    [['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', 'lots'], /--per-second/],
    [['account', 'set-rate-limit', '--account', 'acct_1', '--per-second', '0'], /rate_limit_per_second/],
    [['account', 'create'], /--name/],
    [['account', 'create', '--name', '   '], /name/],
    [['account', 'activate-live'], /--account/],
    [['account', 'rename', '--name', 'x'], /unknown command/],
  ])('exits 2 with a message and nothing on stdout for %j', async (args, message) => {
    const run = await admin(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
  });

  it('exits 1 with a message and nothing on stdout for an unknown account', async () => {
    const run = await admin('account', 'activate-live', '--account', 'acct_00000000000000000000000000');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain("No such account: 'acct_00000000000000000000000000'");
  });
});
