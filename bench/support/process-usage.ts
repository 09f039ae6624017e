import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * CPU time and resident memory of processes, read from each process's own counters in
 * /proc (Linux), so a benchmark can say where its CPU went without instrumenting anything.
 */

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ). */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User plus system CPU milliseconds the process has used so far; 0 once it is gone. */
export function cpuMilliseconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const userTicks = Number(fields[11]);
    const systemTicks = Number(fields[12]);
    return ((userTicks + systemTicks) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** Resident set size in MB; 0 once the process is gone. */
export function residentMegabytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
    return kilobytes / 1024;
  } catch {
    return 0;
  }
}

/** Pids of every running process whose command name is exactly `name` (e.g. postgres). */
export function pidsNamed(name: string): number[] {
  return pgrep(['-x', name]);
}

/** The processes whose full command line matches `pattern` (pgrep -f). */
export function pidsRunning(pattern: string): number[] {
  return pgrep(['-f', pattern]);
}

function pgrep(args: string[]): number[] {
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A named group of processes whose CPU is added up (e.g. every PostgreSQL backend). */
export interface ProcessGroup {
  name: string;
  pids: () => number[];
}

/** Each group's processes and the CPU milliseconds each had used when the snapshot was taken. */
export type CpuSnapshot = Map<string, Map<number, number>>;

export function snapshotCpu(groups: ProcessGroup[]): CpuSnapshot {
  return new Map(groups.map((group) => [group.name, new Map(group.pids().map((pid) => [pid, cpuMilliseconds(pid)]))]));
}

/**
 * CPU milliseconds each group spent between two snapshots: what each process alive at the second
 * used since the first (all of it if it started since). A process gone by the second, such as a
 * PostgreSQL backend whose client disconnected, is left out, so its earlier work is never taken
 * off what the others did.
 */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  return new Map(
    [...after].map(([name, processes]) => {
      const earlier = before.get(name);
      const spent = [...processes].reduce((sum, [pid, ms]) => sum + Math.max(0, ms - (earlier?.get(pid) ?? 0)), 0);
      return [name, spent];
    }),
  );
}

/**
 * Waits until the groups together use less than `share` of the machine's CPU over a whole
 * `windowMs` (the work a load leaves behind it, consumers catching up and relays flushing, is
 * done), or `timeoutMs` has passed. Answers how long it waited, whether they went quiet, and the
 * CPU milliseconds each group used while it waited, so a wait that lasts says who kept busy.
 */
export async function quiescence(
  groups: ProcessGroup[],
  { windowMs = 1000, share = 0.1, timeoutMs = 30_000 } = {},
): Promise<{ waitedMs: number; quiet: boolean; spentWhileWaiting: Map<string, number> }> {
  const started = performance.now();
  const first = snapshotCpu(groups);
  const allowedMs = windowMs * availableParallelism() * share;
  const result = (quiet: boolean) => ({ waitedMs: performance.now() - started, quiet, spentWhileWaiting: cpuSpent(first, snapshotCpu(groups)) });
  while (performance.now() - started < timeoutMs) {
    const before = snapshotCpu(groups);
    await sleep(windowMs);
    const spentMs = [...cpuSpent(before, snapshotCpu(groups)).values()].reduce((sum, ms) => sum + ms, 0);
    if (spentMs < allowedMs) return result(true);
  }
  return result(false);
}

/** Waits for the work a warm-up left behind (consumers catching up, relays flushing), and says how long that took and who kept busy meanwhile. */
export async function settleAfterWarmup(groups: ProcessGroup[]): Promise<void> {
  const settled = await quiescence(groups);
  const busiest = [...settled.spentWhileWaiting].sort(([, a], [, b]) => b - a).slice(0, 3);
  console.log(
    `the system ${settled.quiet ? 'went quiet' : 'was still busy'} ${(settled.waitedMs / 1000).toFixed(1)} s after the warm-up; ` +
      `CPU while waiting: ${busiest.map(([name, ms]) => `${name} ${(ms / 1000).toFixed(1)} s`).join(', ')}`,
  );
}

/** Prints each group's CPU milliseconds per unit of work (`units` of them), then all of them together; answers that sum. */
export function printCpuPerUnit(unit: string, spent: Map<string, number>, units: number): number {
  const perUnit = (ms: number) => (units > 0 ? ms / units : 0);
  console.log(`\nCPU ms per ${unit}, by process`);
  for (const [name, ms] of spent) console.log(`${name.padEnd(28)}${perUnit(ms).toFixed(3).padStart(10)}`);
  const together = perUnit([...spent.values()].reduce((sum, ms) => sum + ms, 0));
  console.log(`${'all together'.padEnd(28)}${together.toFixed(3).padStart(10)}`);
  return together;
}
