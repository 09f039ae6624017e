import path from 'node:path';
import { setup } from '../../tools/setup';
import { assertPortsFree, launchAll, stopServices, waitForSystem, type RunningService } from '../../tools/system/launch';
import { repoRoot, servicePorts } from '../../tools/system/services';
import { pidsNamed, pidsRunning, type ProcessGroup } from './process-usage';

/** Its own copy of the system; 2000 would put the gateway on 10080, a port fetch refuses. */
const PORT_OFFSET = 3000;

export const benchDir = path.join(repoRoot, '.data/bench');

export interface BenchSystem {
  running: RunningService[];
  /** The gateway's base URL. */
  gateway: string;
  /** Every service, PostgreSQL, Redis and the Kafka broker, for per-process CPU figures. */
  processGroups: ProcessGroup[];
  stop(): Promise<void>;
}

/**
 * Starts a copy of the whole system for a benchmark, as `npm start` runs it (bundles, ports
 * shifted by 3000, logs in .data/bench/logs), with the account rate limit far out of the way:
 * every request is still counted, none refused. With `cpuProfile`, every service writes a V8 CPU
 * profile to .data/bench/profiles when it stops.
 */
export async function startBenchSystem({ cpuProfile }: { cpuProfile: boolean }): Promise<BenchSystem> {
  await assertPortsFree(PORT_OFFSET);
  await setup();
  const cpuProfileDir = cpuProfile ? path.join(benchDir, 'profiles') : undefined;
  const env = { gateway: { RATE_LIMIT_PER_SECOND: '1000000' } };
  const running = await launchAll({ portOffset: PORT_OFFSET, env, logDir: path.join(benchDir, 'logs'), cpuProfileDir });
  try {
    await waitForSystem(running, PORT_OFFSET);
  } catch (error) {
    await stopServices(running);
    throw error;
  }
  return {
    running,
    gateway: `http://127.0.0.1:${servicePorts(PORT_OFFSET).gateway.PORT}`,
    processGroups: [
      ...running.map((service) => ({ name: service.name, pids: () => [service.process.pid!] })),
      { name: 'postgres (all backends)', pids: () => pidsNamed('postgres') },
      { name: 'redis', pids: () => pidsNamed('redis-server') },
      { name: 'kafka broker', pids: () => pidsRunning('kafka\\.Kafka') },
    ],
    stop: async () => {
      await stopServices(running);
      if (cpuProfileDir) console.log(`CPU profiles: ${cpuProfileDir}`);
    },
  };
}

/** Runs a benchmark's main: exit 0 when it finishes, 1 with its message when it throws. */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
