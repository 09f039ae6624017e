import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName, type BackendService } from '@ticketing/config';
import { databaseUrl } from '@ticketing/db';
import { bundleAllApps, bundlePath } from './bundles';
import { ALL_SERVICES, DATABASE_SERVICES, repoRoot, servicePorts, type ServiceName } from './services';

export interface LaunchOptions {
  /** Added to every default port (see servicePorts). */
  portOffset?: number;
  /** Extra variables per service, e.g. a slower outbox poll for a crash test. */
  env?: Partial<Record<ServiceName, Record<string, string>>>;
  /** Where each output line goes; defaults to this process's stdout with a service prefix. */
  onOutput?: (service: ServiceName, line: string) => void;
  /**
   * Write each service's output straight to `<logDir>/<service>.log` instead (no line handling
   * in this process, which a benchmark would otherwise pay for).
   */
  logDir?: string;
  /** With `logDir`: add to the log already there (a service started again) instead of starting it afresh. */
  appendLogs?: boolean;
  /** Write a V8 CPU profile of each service into this folder when it exits (`node --cpu-prof`). */
  cpuProfileDir?: string;
}

export interface RunningService {
  name: ServiceName;
  process: ChildProcess;
  exited: Promise<number | null>;
}

function environmentFor(service: ServiceName, options: LaunchOptions): NodeJS.ProcessEnv {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  const database = (DATABASE_SERVICES as string[]).includes(service)
    ? { DATABASE_URL: databaseUrl(adminUrl, defaultDatabaseName(service as BackendService)) }
    : {};
  return { ...process.env, ...database, ...servicePorts(options.portOffset)[service], ...options.env?.[service] };
}

function forwardLines(stream: NodeJS.ReadableStream, emit: (line: string) => void): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) emit(line);
  });
}

/**
 * V8 flags every service runs with. Liftoff only: Prisma's query compiler is WebAssembly, and
 * optimising all of it doubles a service's idle memory (~65 MB) for no gain, since Prisma caches
 * each query's plan after compiling it once. Lazy new-space shrinking: the young generation that
 * start-up or a rush grew is given back while the process idles (decision 0057). No
 * `--enable-source-maps` (decision 0040): grpc-js formats two stacks for every refused call, and
 * mapping them costs a refused sale 10 % of the gateway's CPU; a stack in a log maps back with
 * the bundle's `main.js.map`, or run a process with `NODE_OPTIONS=--enable-source-maps` while
 * debugging.
 */
export const SERVICE_NODE_FLAGS = ['--liftoff-only', '--lazy-new-space-shrinking'];

/**
 * Each service's young generation, the most V8 grows a semi-space to (MB; decision 0057). A
 * request's objects live as long as it is in flight, a few hundred milliseconds in a rush; a
 * young generation that fills faster copies them at every scavenge and promotes them to the old
 * one, so the services on a sale's path get room for that, and the others the least memory.
 */
const YOUNG_GENERATION_MB: Record<ServiceName, number> = { gateway: 16, ticketing: 16, catalog: 16, webhooks: 16, identity: 4, payments: 4, scanning: 4 };

const serviceNodeFlags = (name: ServiceName) => [...SERVICE_NODE_FLAGS, `--max-semi-space-size=${YOUNG_GENERATION_MB[name]}`];

function outputStreams(name: ServiceName, options: LaunchOptions): 'pipe' | number {
  if (!options.logDir) return 'pipe';
  mkdirSync(options.logDir, { recursive: true });
  return openSync(path.join(options.logDir, `${name}.log`), options.appendLogs ? 'a' : 'w');
}

/** Starts one service as its own Node process from its bundle (see bundles.ts; build it first). */
export function launchService(name: ServiceName, options: LaunchOptions = {}): RunningService {
  const profiling = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  const output = outputStreams(name, options);
  const child = spawn(process.execPath, [...serviceNodeFlags(name), ...profiling, bundlePath(name)], {
    cwd: repoRoot,
    env: environmentFor(name, options),
    stdio: ['ignore', output, output],
  });
  // The child has its own copy of the log file's descriptor.
  if (typeof output === 'number') closeSync(output);
  if (output === 'pipe') {
    const emit = options.onOutput ?? ((service, line) => process.stdout.write(`${service.padEnd(9)} | ${line}\n`));
    forwardLines(child.stdout!, (line) => emit(name, line));
    forwardLines(child.stderr!, (line) => emit(name, line));
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, process: child, exited };
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** Fails before anything starts when a port is taken, e.g. by another copy of the system. */
export async function assertPortsFree(portOffset = 0): Promise<void> {
  const ports = Object.values(servicePorts(portOffset)).flatMap((env) =>
    Object.entries(env)
      .filter(([name]) => name.endsWith('PORT'))
      .map(([, value]) => Number(value)),
  );
  const taken: number[] = [];
  for (const port of ports) if (!(await isPortFree(port))) taken.push(port);
  if (taken.length > 0) {
    throw new Error(`Port${taken.length > 1 ? 's' : ''} ${taken.join(', ')} already in use: is a copy of the system already running (npm start)? Stop it first.`);
  }
}

/** Bundles every app from the current sources, then starts them all. */
export async function launchAll(options: LaunchOptions = {}): Promise<RunningService[]> {
  await bundleAllApps();
  return ALL_SERVICES.map((name) => launchService(name, options));
}

/** Polls until the URL answers 200, or fails naming what did not come up. */
export async function waitForHttp(url: string, timeoutMs: number, running: RunningService[] = []): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let crashed: string | undefined;
  for (const service of running) void service.exited.then((code) => (crashed ??= `${service.name} exited with code ${code}`));
  while (Date.now() < deadline) {
    if (crashed) throw new Error(`${crashed} before ${url} was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Every process's readiness endpoint: it serves (its database reachable; decision 0024). */
export async function waitForSystem(running: RunningService[], portOffset = 0, timeoutMs = 120_000): Promise<void> {
  const ports = servicePorts(portOffset);
  const urls = running.map(({ name }) => `http://127.0.0.1:${ports[name].OPS_PORT}/readyz`);
  await Promise.all(urls.map((url) => waitForHttp(url, timeoutMs, running)));
}

/** SIGTERM (graceful), then SIGKILL whatever is still running after the grace period. */
export async function stopServices(running: RunningService[], graceMs = 15_000): Promise<void> {
  await Promise.all(
    running.map(async (service) => {
      if (service.process.exitCode !== null || service.process.signalCode !== null) return;
      service.process.kill('SIGTERM');
      const timer = setTimeout(() => service.process.kill('SIGKILL'), graceMs);
      await service.exited;
      clearTimeout(timer);
    }),
  );
}
