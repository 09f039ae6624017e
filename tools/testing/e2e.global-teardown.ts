import { readPids } from '../../e2e/support/system';

/** Stops every service the suite started (incl. ones a test restarted), gracefully. */
export default async function e2eGlobalTeardown(): Promise<void> {
  const pids = Object.values(readPids());
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 15_000;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
}
