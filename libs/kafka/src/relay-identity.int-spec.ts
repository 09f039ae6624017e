import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isGoneFromThisHost } from './relay-identity';

/** The state letter of a process, from /proc. */
const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()![0];

describe('a relay whose process was killed but not yet reaped', () => {
  it('is gone: a zombie answers a signal but runs nothing', async () => {
    // The shell becomes a `sleep` that never waits for its own child, which stays a zombie once it exits.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombiePid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      while (stateOf(zombiePid) !== 'Z') await new Promise((resolve) => setTimeout(resolve, 20));
      expect(() => process.kill(zombiePid, 0)).not.toThrow();
      expect(isGoneFromThisHost(`${hostname()}/${zombiePid}/0a1b2c3d`)).toBe(true);
      expect(isGoneFromThisHost(`${hostname()}/${parent.pid}/0a1b2c3d`)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
