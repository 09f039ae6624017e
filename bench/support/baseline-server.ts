import { spawn, type ChildProcess } from 'node:child_process';

/** A baseline server a benchmark compares the system with, running in a process of its own. */
export interface BaselineServer {
  child: ChildProcess;
  port: number;
}

/** Starts a baseline server script (an .mjs file), which prints its port once listening. */
export function startBaselineServer(script: string, ...args: string[]): Promise<BaselineServer> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
    child.stdout!.once('data', (chunk: Buffer) => resolve({ child, port: Number(chunk.toString().trim()) }));
  });
}
