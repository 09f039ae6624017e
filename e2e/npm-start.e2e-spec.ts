import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { assertPortsFree, waitForHttp } from '../tools/system/launch';
import { repoRoot, servicePorts } from '../tools/system/services';

/**
 * A copy of `npm start` beside the suite's own system, on ports shifted by this much (not 2000:
 * fetch refuses the gateway's port 10080, a port browsers block).
 */
const PORT_OFFSET = 3000;
const healthUrl = `http://127.0.0.1:${servicePorts(PORT_OFFSET).gateway.PORT}/v1/health`;

interface StartRun {
  process: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function npmStart(): StartRun {
  // A process group of its own, so that a failed test can kill the services with it (afterAll).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tools/start.ts')], {
    cwd: repoRoot,
    env: { ...process.env, PORT_OFFSET: String(PORT_OFFSET) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  return { process: child, output, exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
}

/** Resolves once the run prints `text`; fails if it exits first or takes longer than the bound. */
async function waitForOutput(run: StartRun, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void run.exited.then((code) => (exitCode = code));
  while (!run.output.join('').includes(text)) {
    if (exitCode !== undefined) throw new Error(`npm start exited (${exitCode}) before printing "${text}":\n${run.output.join('')}`);
    if (Date.now() > deadline) throw new Error(`npm start did not print "${text}" within ${timeoutMs} ms:\n${run.output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The pid of the run's process for one service (the services are npm start's own children). */
function servicePid(run: StartRun, service: string): number {
  const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(run.process.pid)], { encoding: 'utf8' });
  const line = children.split('\n').find((entry) => entry.includes(`apps/${service}/dist/main.js`));
  if (!line) throw new Error(`no ${service} process under npm start (pid ${run.process.pid}):\n${children}`);
  return Number(line.trim().split(/\s+/)[0]);
}

async function stop(run: StartRun): Promise<number | null> {
  run.process.kill('SIGINT');
  return run.exited;
}

describe('npm start', () => {
  const runs: StartRun[] = [];
  afterAll(async () => {
    // The whole group: killing npm start alone would leave its services running, orphaned.
    for (const run of runs) if (run.process.exitCode === null && run.process.signalCode === null) process.kill(-run.process.pid!, 'SIGKILL');
  });

  it('brings the system up, starts again a service that dies, refuses a second copy on the same ports, stops everything on Ctrl-C, and starts again', async () => {
    const first = npmStart();
    runs.push(first);
    await waitForOutput(first, 'The API is up', 150_000);
    expect(first.output.join('')).toContain('gRPC contracts match proto/');
    expect((await fetch(healthUrl)).status).toBe(200);

    const killed = servicePid(first, 'scanning');
    process.kill(killed, 'SIGKILL');
    await waitForOutput(first, 'scanning exited unexpectedly (signal SIGKILL', 10_000);
    await waitForOutput(first, 'scanning started again', 10_000);
    expect(servicePid(first, 'scanning')).not.toBe(killed);
    await waitForHttp(`http://127.0.0.1:${servicePorts(PORT_OFFSET).scanning.OPS_PORT}/readyz`, 30_000);

    const second = npmStart();
    runs.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output.join('')).toMatch(/already in use: is a copy of the system already running/);

    expect(await stop(first)).toBe(0);
    await expect(assertPortsFree(PORT_OFFSET)).resolves.toBeUndefined();

    const again = npmStart();
    runs.push(again);
    await waitForOutput(again, 'The API is up', 150_000);
    expect((await fetch(healthUrl)).status).toBe(200);
    expect(await stop(again)).toBe(0);
    await expect(assertPortsFree(PORT_OFFSET)).resolves.toBeUndefined();
  }, 400_000);
});
