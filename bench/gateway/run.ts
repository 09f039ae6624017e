/**
 * Gateway overhead benchmark: autocannon against GET /v1/account and GET /v1/events/{id}
 * through the whole system (gateway → key cache → gRPC → service → Postgres), and against a
 * bare Node HTTP server (its own process, answering a fixed JSON body), in the same run on the
 * same machine, so the figures that matter are ratios to the bare server. Two more baselines
 * show the floor of the stack itself: Express 5, configured as the gateway is, answering the
 * same body with no other work, and Express making one unary gRPC call (raw bytes, no
 * interceptors) to a server that answers at once.
 *
 * For each target it prints requests/s, p50 and p99 latency, the ratio to bare Node, and the
 * CPU milliseconds per request of every process involved (from each process's own counters in
 * /proc before and after the run); then each service's resident memory, idle and after load;
 * and last, one JSON line for scripts.
 *
 *   npm run bench:gateway [-- --duration 10 --connections 50 --warmup 3 --cpu-prof]
 *
 * `--cpu-prof` writes a V8 CPU profile of every service to .data/bench/profiles (open them in
 * Chrome DevTools or speedscope). Service logs go to .data/bench/logs.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { RunningService } from '../../tools/system/launch';
import { as, createAccount } from '../../e2e/support/api';
import { runBenchmark, startBenchSystem, type BenchSystem } from '../support/bench-system';
import { startBaselineServer, type BaselineServer } from '../support/baseline-server';
import { cpuSpent, residentMegabytes, snapshotCpu, type ProcessGroup } from '../support/process-usage';

interface Figures {
  target: string;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** CPU milliseconds per request, by process (group). */
  cpuPerRequest: Map<string, number>;
}

interface Options {
  duration: number;
  connections: number;
  /** Seconds of unmeasured load on each target before its measured run. */
  warmup: number;
}

async function measure(target: string, url: string, headers: Record<string, string>, groups: ProcessGroup[], options: Options): Promise<Figures> {
  // Unmeasured: the first requests of a path pay for its compilation and the heap's growth, which
  // a server running for hours does not; without this the first target measured paid for them.
  await autocannon({ url, headers, duration: options.warmup, connections: options.connections });
  const before = snapshotCpu(groups);
  const result = await autocannon({ url, headers, duration: options.duration, connections: options.connections });
  const spent = cpuSpent(before, snapshotCpu(groups));
  const requests = result.requests.total;
  const cpuPerRequest = new Map([...spent].map(([name, ms]) => [name, requests > 0 ? ms / requests : 0]));
  return { target, requests, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, cpuPerRequest };
}

/** Starts one of the baseline servers in this folder. */
const startBaseline = (script: string, ...args: string[]) => startBaselineServer(path.join(__dirname, script), ...args);

/** The baselines: bare Node, and the floor of the fixed stack (Express alone, Express plus one gRPC call). */
interface Baselines {
  bare: BaselineServer;
  express: BaselineServer;
  grpcEcho: BaselineServer;
  expressGrpc: BaselineServer;
}

async function startBaselines(): Promise<Baselines> {
  const grpcEcho = await startBaseline('grpc-echo-server.mjs');
  const [bare, express, expressGrpc] = await Promise.all([
    startBaseline('bare-server.mjs'),
    startBaseline('express-server.mjs'),
    startBaseline('express-grpc-server.mjs', String(grpcEcho.port)),
  ]);
  return { bare, express, grpcEcho, expressGrpc };
}

function stopBaselines(baselines: Baselines): void {
  for (const baseline of Object.values(baselines)) baseline.child.kill('SIGTERM');
}

/** Every process a request may cost CPU in; groups with no CPU in a run print as 0. */
function processGroups(system: BenchSystem, baselines: Baselines): ProcessGroup[] {
  return [
    { name: 'autocannon (this process)', pids: () => [process.pid] },
    { name: 'bare node', pids: () => [baselines.bare.child.pid!] },
    { name: 'express only', pids: () => [baselines.express.child.pid!] },
    { name: 'express → gRPC', pids: () => [baselines.expressGrpc.child.pid!] },
    { name: 'gRPC echo', pids: () => [baselines.grpcEcho.child.pid!] },
    ...system.processGroups,
  ];
}

function printThroughput(rows: Figures[], bare: Figures): void {
  console.log('\ntarget                     req/s      p50 ms   p99 ms   vs bare (req/s)   non-2xx');
  for (const row of rows) {
    const ratio = (row.requestsPerSecond / bare.requestsPerSecond).toFixed(3);
    console.log(
      `${row.target.padEnd(24)} ${row.requestsPerSecond.toFixed(0).padStart(8)} ${row.p50.toFixed(1).padStart(10)} ${row.p99.toFixed(1).padStart(8)} ${ratio.padStart(17)} ${String(row.non2xx).padStart(9)}`,
    );
  }
}

function printCpu(rows: Figures[]): void {
  console.log('\nCPU ms per request, by process');
  const names = [...rows[0]!.cpuPerRequest.keys()];
  console.log(`${'process'.padEnd(28)}${rows.map((row) => row.target.padStart(22)).join('')}`);
  for (const name of names) {
    console.log(`${name.padEnd(28)}${rows.map((row) => (row.cpuPerRequest.get(name) ?? 0).toFixed(3).padStart(22)).join('')}`);
  }
  const totals = rows.map((row) => [...row.cpuPerRequest.values()].reduce((sum, ms) => sum + ms, 0));
  console.log(`${'all of the above'.padEnd(28)}${totals.map((ms) => ms.toFixed(3).padStart(22)).join('')}`);
}

function printMemory(idle: Map<string, number>, loaded: Map<string, number>): void {
  console.log('\nresident memory (MB)        idle   after load');
  for (const [name, megabytes] of idle) {
    console.log(`${name.padEnd(24)} ${megabytes.toFixed(0).padStart(8)} ${(loaded.get(name) ?? 0).toFixed(0).padStart(12)}`);
  }
}

function residentMemory(running: RunningService[]): Map<string, number> {
  return new Map(running.map((service) => [service.name, residentMegabytes(service.process.pid!)]));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '3' },
      'cpu-prof': { type: 'boolean', default: false },
    },
  });
  const options = { duration: Number(values.duration), connections: Number(values.connections), warmup: Number(values.warmup) };
  const system = await startBenchSystem({ cpuProfile: values['cpu-prof'] });
  const { running, gateway } = system;
  const baselines = await startBaselines();
  try {
    const { secret_key: key } = await createAccount('bench');
    const event = await as(key, gateway).post('/v1/events', { name: 'Bench Night', starts_at: '2099-01-01T20:00:00Z' });
    const headers = { authorization: `Bearer ${key}` };
    // Let start-up work (JIT, first connections, consumer joins) settle before reading idle memory.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idleMemory = residentMemory(running);
    const groups = processGroups(system, baselines);

    console.log(`autocannon: ${options.connections} connections, ${options.duration} s per target after ${options.warmup} s unmeasured`);
    const baseline = (server: BaselineServer) => `http://127.0.0.1:${server.port}/`;
    const bareFigures = await measure('bare node http', baseline(baselines.bare), {}, groups, options);
    const expressOnly = await measure('express 5, no work', baseline(baselines.express), {}, groups, options);
    const expressGrpc = await measure('express + 1 gRPC call', baseline(baselines.expressGrpc), {}, groups, options);
    const account = await measure('GET /v1/account', `${gateway}/v1/account`, headers, groups, options);
    const eventRead = await measure('GET /v1/events/{id}', `${gateway}/v1/events/${event.body.id}`, headers, groups, options);
    const rows = [bareFigures, expressOnly, expressGrpc, account, eventRead];
    printThroughput(rows, bareFigures);
    printCpu(rows);
    printMemory(idleMemory, residentMemory(running));

    const round = (value: number, digits: number) => Number(value.toFixed(digits));
    console.log(
      JSON.stringify({
        bare_rps: round(bareFigures.requestsPerSecond, 0),
        account_rps: round(account.requestsPerSecond, 0),
        account_ratio: round(account.requestsPerSecond / bareFigures.requestsPerSecond, 3),
        event_rps: round(eventRead.requestsPerSecond, 0),
        event_ratio: round(eventRead.requestsPerSecond / bareFigures.requestsPerSecond, 3),
        account_p99_ms: account.p99,
        express_floor_ratio: round(expressOnly.requestsPerSecond / bareFigures.requestsPerSecond, 3),
        express_grpc_floor_ratio: round(expressGrpc.requestsPerSecond / bareFigures.requestsPerSecond, 3),
        event_p99_ms: eventRead.p99,
        idle_rss_mb: Object.fromEntries([...idleMemory].map(([name, megabytes]) => [name, round(megabytes, 0)])),
      }),
    );
  } finally {
    stopBaselines(baselines);
    await system.stop();
  }
}

runBenchmark(main);
