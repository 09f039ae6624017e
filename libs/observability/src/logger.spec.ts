import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/** The processes a test started, killed after it even if it failed before they ended. */
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill()));

/**
 * A process that logs through createLogger, running `body` (which sees `logger`) and printing
 * what reached its stdout. The logger writes in blocks, so these check that no line waits for
 * company for good, nor is lost when the process exits.
 */
function loggingProcess(body: string) {
  const logger = path.join(__dirname, 'logger.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', `const logger = require(${JSON.stringify(logger)}).createLogger('test');\n${body}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  const lines = () => output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; service: string });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, exited };
}

const eventually = async (check: () => boolean) => {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 5_000) throw new Error('the line was not written while the process ran');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('createLogger', () => {
  it('writes a lone line while the process runs, without waiting for more lines', async () => {
    // The process stays up until its stdin closes: the line must come out before that.
    const { child, lines, exited } = loggingProcess(`logger.info('alone'); process.stdin.resume();`);
    await eventually(() => lines().length === 1);
    expect(lines()).toEqual([expect.objectContaining({ msg: 'alone', service: 'test' })]);
    child.stdin.end();
    expect(await exited).toBe(0);
  });

  it('writes every line logged before the process exits', async () => {
    const { lines, exited } = loggingProcess(`for (let n = 0; n < 3; n++) logger.info('line ' + n); process.exit(0);`);
    expect(await exited).toBe(0);
    expect(lines().map((line) => line.msg)).toEqual(['line 0', 'line 1', 'line 2']);
  });
});
