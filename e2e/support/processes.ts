import { waitFor } from '@ticketing/testing';
import { launchService, waitForSystem, type RunningService } from '../../tools/system/launch';
import type { ServiceName } from '../../tools/system/services';
import { E2E_LOG_DIR, E2E_PORT_OFFSET, e2eServiceEnv, readPids, recordPid } from './system';

/** Crash tests' handles on the suite's service processes. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGKILL: the process gets no chance to finish anything. */
export async function kill(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await waitFor(`process ${pid} to die`, async () => (isRunning(pid) ? undefined : true));
}

/** Kills the running copy of `service` (if any) and starts a new one with the suite's settings and `env`. */
export async function restart(service: ServiceName, env: Record<string, string> = {}): Promise<RunningService> {
  const running = readPids()[service];
  if (running && isRunning(running)) await kill(running);
  const started = launchService(service, { portOffset: E2E_PORT_OFFSET, env: e2eServiceEnv({ [service]: env }), logDir: E2E_LOG_DIR, appendLogs: true });
  recordPid(service, started.process.pid!);
  await waitForSystem([started], E2E_PORT_OFFSET);
  return started;
}
