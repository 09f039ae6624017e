import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Relays this process made (one per service, more in tests): alive, though they share its pid. */
const relaysOfThisProcess = new Set<string>();

/**
 * A relay's name in the claims it takes: `<host>/<pid>/<random>`. The host and process say where
 * it runs, so a relay can tell a claim left by a process of its own host that is gone.
 */
export function newRelayId(): string {
  const id = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  relaysOfThisProcess.add(id);
  return id;
}

/**
 * Whether `claimant` is a relay of this host whose process has ended: one under this process's
 * pid that this process did not make (an earlier process of the container: a crashed container
 * restarts in its pod, under its host name, often as the same pid), or one under a pid no
 * process has now. A relay of another host, or one that may be alive, is not known gone.
 */
export function isGoneFromThisHost(claimant: string): boolean {
  const [host, pidText] = claimant.split('/');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return !relaysOfThisProcess.has(claimant);
  return !processExists(pid);
}

/**
 * Whether a process with that pid runs. A killed process whose parent has not reaped it yet (a
 * zombie) does not: it answers a signal but runs nothing, and a shell as a container's PID 1 can
 * leave one for a long while (a probe's relaunched relay waited out the lease behind one).
 */
function processExists(pid: number): boolean {
  const state = linuxProcessState(pid);
  if (state !== undefined) return state !== null && state !== 'Z';
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user has that pid.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's state letter from /proc (R, S, Z…), null when there is no such process, undefined where /proc is not. */
function linuxProcessState(pid: number): string | null | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "<pid> (<command>) <state> …": the command may itself hold spaces or parentheses.
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return null;
  }
}
