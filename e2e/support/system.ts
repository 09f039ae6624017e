import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, servicePorts, type ServiceName } from '../../tools/system/services';

/**
 * The end-to-end suite runs its own copy of the system with every port shifted by this
 * offset, so it can run beside a developer's `npm start`.
 */
export const E2E_PORT_OFFSET = 1000;

/**
 * Settings of the suite's system, for the first start and for every restart a test makes:
 * suites create data as fast as one client can, so the account limit is far above the
 * default (the limits themselves are tested in apps/gateway/test), and what payments decides
 * late it decides soon.
 */
const E2E_SERVICE_ENV: Partial<Record<ServiceName, Record<string, string>>> = {
  gateway: { RATE_LIMIT_PER_SECOND: '10000' },
  // The sandbox's late decline, and the re-driver that learns it, within a second or two.
  payments: { SANDBOX_DECLINE_DELAY_MS: '1000', CHARGE_REDRIVE_INTERVAL_MS: '250', CHARGE_REDRIVE_AFTER_MS: '500' },
};

/** The suite's settings for every service, with a test's own settings for some on top. */
export function e2eServiceEnv(overrides: Partial<Record<ServiceName, Record<string, string>>> = {}): Partial<Record<ServiceName, Record<string, string>>> {
  const services = new Set([...Object.keys(E2E_SERVICE_ENV), ...Object.keys(overrides)] as ServiceName[]);
  return Object.fromEntries([...services].map((service) => [service, { ...E2E_SERVICE_ENV[service], ...overrides[service] }]));
}

/** Each service of the suite's system writes its log here, a file each, restarts included. */
export const E2E_LOG_DIR = path.join(repoRoot, '.data/e2e/logs');

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
