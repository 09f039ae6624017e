import { setup } from '../setup';
import { assertPortsFree, launchAll, stopServices, waitForSystem } from '../system/launch';
import { ensureChromium } from '../system/chromium';
import { E2E_LOG_DIR, E2E_PORT_OFFSET, e2eServiceEnv, recordPid, resetPids } from '../../e2e/support/system';

/** Starts infrastructure and every service once for the whole end-to-end run. */
export default async function e2eGlobalSetup(): Promise<void> {
  await assertPortsFree(E2E_PORT_OFFSET);
  ensureChromium();
  await setup();
  resetPids();
  // Each service writes its own log file, so that the test process spends no CPU relaying lines
  // (the on-sale rush logs thousands of them while it measures the system).
  const running = await launchAll({ portOffset: E2E_PORT_OFFSET, env: e2eServiceEnv(), logDir: E2E_LOG_DIR });
  for (const service of running) recordPid(service.name, service.process.pid!);
  try {
    await waitForSystem(running, E2E_PORT_OFFSET);
  } catch (error) {
    await stopServices(running);
    throw new Error(`${(error as Error).message}; service logs: ${E2E_LOG_DIR}`);
  }
}
