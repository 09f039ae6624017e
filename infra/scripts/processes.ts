import { spawn } from 'node:child_process';

export interface CommandResult {
  exitCode: number;
  output: string;
}

/** Runs a command to completion, capturing stdout and stderr together. */
export function runCommand(command: string, args: string[], installHint: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'ENOENT' ? new Error(`\`${command}\` is not installed: ${installHint}`) : error);
    });
    child.on('close', (exitCode) => resolve({ exitCode: exitCode ?? 1, output }));
  });
}

export function commandFailed(command: string, args: string[], result: CommandResult): Error {
  const tail = result.output.trim().split('\n').slice(-20).join('\n');
  return new Error(`\`${[command, ...args].join(' ')}\` exited with code ${result.exitCode}:\n${tail}`);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
