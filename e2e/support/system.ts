import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, servicePorts, type ServiceName } from '../../tools/system/services';

/**
 * The end-to-end suite runs its own copy of the system with every port shifted by this
 * offset, so it can run beside a developer's `npm start`.
 */
export const E2E_PORT_OFFSET = 1000;

export const gatewayUrl = `http://127.0.0.1:${servicePorts(E2E_PORT_OFFSET).gateway.PORT}`;

/** Processes started for the suite, so teardown (and a test that restarts one) can find them. */
const pidFile = path.join(repoRoot, '.data/e2e/pids.json');

export function readPids(): Partial<Record<ServiceName, number>> {
  try {
    return JSON.parse(readFileSync(pidFile, 'utf8'));
  } catch {
    return {};
  }
}

/** Forgets the processes of an earlier run, so teardown never signals unrelated pids. */
export function resetPids(): void {
  mkdirSync(path.dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, '{}');
}

export function recordPid(service: ServiceName, pid: number): void {
  mkdirSync(path.dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, JSON.stringify({ ...readPids(), [service]: pid }));
}
