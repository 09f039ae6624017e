import { ConfigError } from '@ticketing/config';
import { closeLogger, createLogger, type Logger } from '@ticketing/observability';

let shutdownBegun = false;

/** From now on this process is shutting down: its readiness answers 503 while in-flight work drains. */
export function beginShutdown(): void {
  shutdownBegun = true;
}

/**
 * A readiness that answers "not ready" once the process has begun shutting down, whatever
 * `isReady` says: a process draining its in-flight work after SIGTERM no longer takes new work,
 * and a load balancer that still read it ready would route to ports about to close.
 */
export function readyUnlessShuttingDown(isReady: () => Promise<boolean>): () => Promise<boolean> {
  return async () => !shutdownBegun && (await isReady());
}

/**
 * Steps that undo start-up, run in order at shutdown (e.g. stop gRPC, flush outbox, close DB);
 * one marked `last` runs after all the others whatever its place (see shutdownOrder).
 */
export type ShutdownStep = { name: string; run: () => Promise<unknown>; last?: boolean };

/**
 * The order the steps run in: as given, except that those marked `last` follow the rest. The ops
 * server is one: until everything else has stopped, its /readyz answers 503 and its /metrics can
 * still be scraped, instead of refusing connections for the last seconds of a drain.
 */
export function shutdownOrder(steps: readonly ShutdownStep[]): ShutdownStep[] {
  return [...steps.filter((step) => !step.last), ...steps.filter((step) => step.last)];
}

export interface ServiceStart<TConfig> {
  name: string;
  loadConfig: () => TConfig & { LOG_LEVEL: string };
  start: (config: TConfig, logger: Logger) => Promise<ShutdownStep[]>;
}

/**
 * The life of a service process: validated config first (a bad variable stops start-up with a
 * message naming it), then start, then on SIGTERM/SIGINT a graceful, ordered shutdown.
 */
export async function runService<TConfig>(service: ServiceStart<TConfig>): Promise<void> {
  let config: TConfig & { LOG_LEVEL: string };
  try {
    config = service.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${service.name}: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(service.name, config.LOG_LEVEL);
  let steps: ShutdownStep[];
  try {
    steps = await service.start(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'start-up failed');
    await closeLogger(logger);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    beginShutdown();
    logger.info({ signal }, 'shutting down');
    for (const step of shutdownOrder(steps)) {
      try {
        await step.run();
      } catch (error) {
        logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    await closeLogger(logger);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  // Said once the signals are handled: a supervisor that stops the process as soon as it reads
  // this line must get the graceful shutdown, not the default action (death mid-write).
  logger.info('started');
}
