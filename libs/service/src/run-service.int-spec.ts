import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const fixture = path.join(__dirname, 'fixtures/minimal-service.ts');

describe('a service process', () => {
  it('stops on SIGTERM even when the reader of its stdout is gone, as when its supervisor was killed with SIGKILL', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('"started"') && resolve()));

    child.stdout!.destroy();
    await once(child.stdout!, 'close'); // our end is closed: the service's writes now fail with EPIPE
    child.kill('SIGTERM');
    const outcome = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000))]);
    if (outcome !== 0) child.kill('SIGKILL');
    expect(outcome).toBe(0);
  }, 30_000);
});
