import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { displayPath, paths } from './paths';
import { isProcessAlive } from './processes';
import { waitUntil } from './wait';

/** A holder writes its pid right after creating the file; an empty file older than this was abandoned. */
const EMPTY_LOCK_GRACE_MS = 10_000;

/**
 * Runs `task` while holding `.data/locks/<name>.lock`, so concurrent `npm start` / `npm test`
 * processes never start the same service twice. A lock left by a dead process is taken over.
 */
export async function withExclusiveLock<T>(name: string, timeoutMs: number, task: () => Promise<T>): Promise<T> {
  const lockPath = path.join(paths.locksDir, `${name}.lock`);
  await mkdir(paths.locksDir, { recursive: true });
  await waitUntil(() => tryAcquire(lockPath), {
    timeoutMs,
    intervalMs: 250,
    timeoutMessage:
      `Another process held ${displayPath(lockPath)} for more than ${timeoutMs / 1000} s (its pid is in the file). ` +
      'If no other npm start, npm test or infra:up is running, delete the file and retry.',
  });
  try {
    return await task();
  } finally {
    await rm(lockPath, { force: true });
  }
}

async function tryAcquire(lockPath: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, 'wx');
    try {
      await handle.writeFile(String(process.pid));
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (await isStale(lockPath)) await rm(lockPath, { force: true });
    return false;
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const holder = Number.parseInt(await readFile(lockPath, 'utf8'), 10);
    if (Number.isInteger(holder)) return !isProcessAlive(holder);
    const { mtimeMs } = await stat(lockPath);
    return Date.now() - mtimeMs > EMPTY_LOCK_GRACE_MS;
  } catch (error) {
    // Released between our open() and this read: not stale, just retry.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
