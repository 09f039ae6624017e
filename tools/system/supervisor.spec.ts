import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { RunningService } from './launch';
import type { ServiceName } from './services';
import { Supervisor } from './supervisor';

/** A stand-in for a service's process: `exit()` ends it as a crash would. */
interface FakeService extends RunningService {
  exit(code: number | null, signal?: NodeJS.Signals): void;
}

let nextPid = 1000;

function fakeService(name: ServiceName): FakeService {
  const child = Object.assign(new EventEmitter(), { pid: nextPid++, exitCode: null as number | null, signalCode: null as NodeJS.Signals | null });
  let resolveExit!: (code: number | null) => void;
  const exited = new Promise<number | null>((resolve) => (resolveExit = resolve));
  Object.assign(child, {
    kill: () => {
      child.signalCode = 'SIGTERM';
      resolveExit(null);
      return true;
    },
  });
  return {
    name,
    process: child as unknown as ChildProcess,
    exited,
    exit(code, signal) {
      child.exitCode = code;
      child.signalCode = signal ?? null;
      resolveExit(code);
    },
  };
}

describe('Supervisor', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  function supervise(...names: ServiceName[]) {
    const started: FakeService[] = [];
    const lines: string[] = [];
    const initial = names.map(fakeService);
    const supervisor = new Supervisor(
      initial,
      (name) => {
        const service = fakeService(name);
        started.push(service);
        return service;
      },
      (line) => lines.push(line),
    );
    return { supervisor, initial, started, lines };
  }

  it('starts a service that exits on its own again after a pause, and says so', async () => {
    const { supervisor, initial, started, lines } = supervise('catalog', 'gateway');
    const [catalog, gateway] = initial as [FakeService, FakeService];
    catalog.exit(null, 'SIGKILL');
    await jest.advanceTimersByTimeAsync(0);
    expect(lines[0]).toMatch(/^catalog exited unexpectedly \(signal SIGKILL; see its log lines above\); starting it again in [0-9.]+ s$/);
    expect(started).toHaveLength(0);

    await jest.advanceTimersByTimeAsync(1_000);
    expect(started.map((service) => service.name)).toEqual(['catalog']);
    const restarted = started[0]!;
    expect(lines[1]).toBe(`catalog started again (pid ${restarted.process.pid})`);
    expect(supervisor.running.map((service) => service.process.pid)).toEqual([restarted.process.pid, gateway.process.pid]);
  });

  it('doubles the pause while a service keeps exiting soon after it starts, and starts from the shortest once it stayed up', async () => {
    const { initial, started } = supervise('identity');
    let current = initial[0]!;
    const pauses: number[] = [];
    const crashAndMeasurePause = async () => {
      const restartsBefore = started.length;
      current.exit(1);
      const crashedAt = Date.now();
      while (started.length === restartsBefore) await jest.advanceTimersByTimeAsync(100);
      pauses.push(Date.now() - crashedAt);
      current = started[started.length - 1]!;
    };

    for (let crash = 0; crash < 7; crash++) await crashAndMeasurePause();
    expect(pauses[0]).toBeLessThanOrEqual(1_100);
    expect(pauses[3]).toBeGreaterThanOrEqual(4_000); // 8 s ceiling, upper half randomised
    expect(pauses[6]).toBeGreaterThanOrEqual(15_000); // the 30 s cap
    expect(pauses[6]).toBeLessThanOrEqual(30_100);

    await jest.advanceTimersByTimeAsync(60_000); // up a minute: it had recovered
    await crashAndMeasurePause();
    expect(pauses[7]).toBeLessThanOrEqual(1_100);
  });

  it('restarts nothing once stopped, not even a restart already scheduled', async () => {
    const { supervisor, initial, started } = supervise('ticketing', 'webhooks');
    initial[0]!.exit(1);
    await jest.advanceTimersByTimeAsync(0);
    await supervisor.stop();
    await jest.advanceTimersByTimeAsync(120_000);
    expect(started).toHaveLength(0);
  });
});
