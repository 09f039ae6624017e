import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { assertStartableHere, redactUrl } from './endpoints';
import { withExclusiveLock } from './lock';
import { commandFailed, runCommand } from './processes';
import { waitUntil } from './wait';

const STARTUP_TIMEOUT_MS = 15_000;
const PROBE_TIMEOUT_MS = 1_000;
const DATA_DIR = '/var/lib/redis';
const LOG_FILE = '/var/log/redis/ci.log';

/** Starts a local redis-server unless `url` already answers. Returns true if this call started it. */
export async function ensureRedis(url: string, log: (line: string) => void): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const portNumber = Number(port || 6379);
  if (await answersPing(hostname, portNumber)) {
    log('redis: already running');
    return false;
  }
  assertStartableHere('Redis', 'REDIS_URL', redactUrl(url), hostname);
  const started = await withExclusiveLock('redis', STARTUP_TIMEOUT_MS * 2, async () => {
    if (await answersPing(hostname, portNumber)) return false; // a concurrent caller started it while we waited
    await startRedis(portNumber);
    await waitUntil(() => answersPing(hostname, portNumber), {
      timeoutMs: STARTUP_TIMEOUT_MS,
      timeoutMessage: `redis-server was started but did not answer PING at ${redactUrl(url)} within ${STARTUP_TIMEOUT_MS / 1000} s; see ${LOG_FILE}.`,
    });
    return true;
  });
  log(started ? 'redis: started' : 'redis: already running');
  return started;
}

/** Any reply counts: even "-NOAUTH" proves a server is listening. */
function answersPing(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host: host || '127.0.0.1', port });
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', () => finish(true));
  });
}

async function startRedis(port: number): Promise<void> {
  await mkdir(DATA_DIR, { recursive: true });
  await mkdir(path.dirname(LOG_FILE), { recursive: true });
  // Matches the CI setup: no persistence, a throwaway cache for development and tests.
  const args = [
    ...['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', String(port)],
    ...['--save', '', '--appendonly', 'no', '--dir', DATA_DIR, '--logfile', LOG_FILE],
  ];
  const result = await runCommand('redis-server', args, 'install Redis (apt-get install redis-server).');
  if (result.exitCode !== 0) throw commandFailed('redis-server', args, result);
}
