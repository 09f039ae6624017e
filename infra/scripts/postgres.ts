import { readdir } from 'node:fs/promises';
import { Client } from 'pg';
import { assertStartableHere, redactUrl } from './endpoints';
import { withExclusiveLock } from './lock';
import { commandFailed, runCommand } from './processes';
import { waitUntil } from './wait';

const STARTUP_TIMEOUT_MS = 60_000;
/** pg_ctlcluster's documented exit code when the cluster is already running (e.g. a concurrent caller won). */
const PG_CTLCLUSTER_ALREADY_RUNNING = 2;
/** SQLSTATE cannot_connect_now: the server is starting up or shutting down. */
const CANNOT_CONNECT_NOW = '57P03';

/** Starts the local PostgreSQL cluster unless `url` already answers. Returns true if this call started it. */
export async function ensurePostgres(url: string, log: (line: string) => void): Promise<boolean> {
  if (await isPostgresReachable(url)) {
    log('postgres: already running');
    return false;
  }
  assertStartableHere('PostgreSQL', 'POSTGRES_URL', redactUrl(url), new URL(url).hostname);
  const started = await withExclusiveLock('postgres', STARTUP_TIMEOUT_MS * 2, async () => {
    if (await isPostgresReachable(url)) return false; // a concurrent caller started it while we waited
    await startAndAwait(url);
    return true;
  });
  log(started ? 'postgres: started' : 'postgres: already running');
  return started;
}

async function startAndAwait(url: string): Promise<void> {
  const version = await newestInstalledVersion();
  await startCluster(version);
  await waitUntil(() => isPostgresReachable(url), {
    timeoutMs: STARTUP_TIMEOUT_MS,
    timeoutMessage:
      `PostgreSQL ${version}/main was started but did not accept connections at ${redactUrl(url)} within ` +
      `${STARTUP_TIMEOUT_MS / 1000} s. Check /var/log/postgresql/postgresql-${version}-main.log and that the ` +
      'cluster listens on the port in POSTGRES_URL.',
  });
}

/**
 * False while nothing accepts connections; throws when a server answers but refuses us
 * (bad credentials, missing database), because starting another server would not help.
 */
async function isPostgresReachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const isServerError = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
    if (!isServerError || code === CANNOT_CONNECT_NOW) return false;
    throw new Error(`PostgreSQL at ${redactUrl(url)} is running but refused the connection: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function newestInstalledVersion(): Promise<string> {
  const entries = await readdir('/etc/postgresql').catch(() => []);
  const versions = entries.filter((entry) => /^\d+(\.\d+)?$/.test(entry)).sort((a, b) => Number(b) - Number(a));
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      'PostgreSQL is not running and no cluster exists under /etc/postgresql. ' +
        'Install it (apt-get install postgresql) or point POSTGRES_URL at a running server.',
    );
  }
  return newest;
}

async function startCluster(version: string): Promise<void> {
  const args = ['--skip-systemctl-redirect', version, 'main', 'start'];
  const result = await runCommand('pg_ctlcluster', args, 'install PostgreSQL (apt-get install postgresql).');
  if (result.exitCode !== 0 && result.exitCode !== PG_CTLCLUSTER_ALREADY_RUNNING) {
    throw commandFailed('pg_ctlcluster', args, result);
  }
}
