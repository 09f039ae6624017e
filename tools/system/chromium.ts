import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's Chromium: the browser the real-browser tests drive with playwright-core (browser downloads are not reachable). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Installs Debian's `chromium` package when it is missing, so `npm test` works on a fresh
 * machine. Needs root (apt-get); otherwise it says what to run.
 */
export function ensureChromium(log: (line: string) => void = console.log): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: install Debian's chromium package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  log('chromium: installing Debian\'s chromium package (apt-get)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', env });
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium, yet ${CHROMIUM_PATH} is missing`);
}
