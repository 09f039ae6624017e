import { backoffDelay, type Backoff } from '@ticketing/backoff';
import { stopServices, type RunningService } from './launch';
import type { ServiceName } from './services';

/**
 * Pauses before starting a service again: a ceiling of 1 s, doubling with each quick exit up to
 * 30 s; each pause falls in the upper half of its ceiling (backoffDelay), so 0.5–1 s at first.
 */
const RESTART_BACKOFF: Backoff = { initialMs: 1_000, maxMs: 30_000 };

/** A service that stayed up this long had recovered: its next exit restarts it after the shortest pause. */
const RECOVERED_AFTER_MS = 60_000;

function describeExit(service: RunningService, code: number | null): string {
  return code === null ? `signal ${service.process.signalCode ?? 'unknown'}` : `code ${code}`;
}

/**
 * Keeps `npm start`'s services running the way Kubernetes keeps a pod's container running: a
 * service that exits on its own (a crash, an out-of-memory kill) is started again after a pause
 * that doubles with each exit that follows soon after a start, so a service that cannot start
 * does not spin. Every service is built to start into a system whose other parts are down and to
 * take up its work where it left it (outbox claims, consumer offsets, decisions 0019 and 0044).
 */
export class Supervisor {
  private readonly services: Map<ServiceName, RunningService>;
  private readonly pendingRestarts = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    initial: RunningService[],
    private readonly relaunch: (name: ServiceName) => RunningService,
    private readonly report: (line: string) => void,
  ) {
    this.services = new Map(initial.map((service) => [service.name, service]));
    for (const service of initial) this.watch(service, 0);
  }

  /** The processes running now (restarted ones replace the ones that exited). */
  get running(): RunningService[] {
    return [...this.services.values()];
  }

  /** Stops every service (SIGTERM, then SIGKILL after the grace period); nothing restarts after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.pendingRestarts) clearTimeout(timer);
    this.pendingRestarts.clear();
    await stopServices(this.running);
  }

  /** `quickExits`: how many times in a row this service exited soon after being started. */
  private watch(service: RunningService, quickExits: number): void {
    const startedAt = Date.now();
    void service.exited.then((code) => {
      if (this.stopped) return;
      const exitsInARow = Date.now() - startedAt >= RECOVERED_AFTER_MS ? 1 : quickExits + 1;
      const delayMs = backoffDelay(exitsInARow, RESTART_BACKOFF);
      this.report(
        `${service.name} exited unexpectedly (${describeExit(service, code)}; see its log lines above); starting it again in ${(delayMs / 1000).toFixed(1)} s`,
      );
      const timer = setTimeout(() => {
        this.pendingRestarts.delete(timer);
        const restarted = this.relaunch(service.name);
        this.services.set(service.name, restarted);
        this.report(`${service.name} started again (pid ${restarted.process.pid})`);
        this.watch(restarted, exitsInARow);
      }, delayMs);
      this.pendingRestarts.add(timer);
    });
  }
}
