import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setup } from '../setup';
import { assertPortsFree, launchAll, stopServices, waitForSystem } from '../system/launch';
import { ensureChromium } from '../system/chromium';
import { repoRoot } from '../system/services';
import { E2E_PORT_OFFSET, e2eServiceEnv, recordPid, resetPids } from '../../e2e/support/system';

/** Starts infrastructure and every service once for the whole end-to-end run. */
export default async function e2eGlobalSetup(): Promise<void> {
  await assertPortsFree(E2E_PORT_OFFSET);
  ensureChromium();
  await setup();
  resetPids();
  const logDir = path.join(repoRoot, '.data/e2e');
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(path.join(logDir, 'services.log'), { flags: 'w' });
  const running = await launchAll({ portOffset: E2E_PORT_OFFSET, env: e2eServiceEnv(), onOutput: (service, line) => log.write(`${service} | ${line}\n`) });
  for (const service of running) recordPid(service.name, service.process.pid!);
  try {
    await waitForSystem(running, E2E_PORT_OFFSET);
  } catch (error) {
    await stopServices(running);
    throw new Error(`${(error as Error).message}; service logs: ${path.join(logDir, 'services.log')}`);
  }
}
