import type { InternalPrincipal } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { withRequestId } from '@ticketing/observability';
import { CallContext } from './call-context';
import { CallMetrics } from './call-metrics';
import { IdempotentCall, runIdempotentCall, type IdempotencyMetadata } from './idempotent-call';
import type { GrpcServerOptions } from './server';

/** The caller has given up on a call whose deadline passed: running it could only surprise them. */
function deadlinePassed(deadline: Date | undefined): boolean {
  return deadline !== undefined && deadline.getTime() <= Date.now();
}

/** One call as a service runs it, sent alone or as an item of a batch call (decision 0058). */
export interface CallToRun {
  /** The handler's name, which the call's log line and metrics give. */
  rpc: string;
  /** The RPC's full path: an Idempotency-Key is scoped by it. */
  path: string;
  principal: InternalPrincipal;
  requestId: string;
  deadline: Date | undefined;
  idempotency: IdempotencyMetadata | undefined;
  request: unknown;
}

/** How a call ended: its response, or why it has none. */
export type CallOutcome =
  | { kind: 'answered'; response: unknown; replayed: boolean }
  | { kind: 'refused'; error: ApiError }
  /** A dependency did not answer: the caller may retry. */
  | { kind: 'unavailable' }
  /** Its deadline had passed before it ran: it was not run. */
  | { kind: 'late' }
  /** Anything else, logged: hidden from the caller. */
  | { kind: 'failed' };

/**
 * Runs calls as every service runs them: a call past its deadline is not run, a call with an
 * Idempotency-Key runs as an IdempotentCall, the handler runs in its request id's scope (what it
 * publishes carries it), and each call ends with one log line naming its request id, so a search
 * for the id finds the service's part, and is counted and timed in the process's metrics.
 */
export class CallRunner {
  private readonly metrics: CallMetrics;

  constructor(private readonly options: GrpcServerOptions) {
    this.metrics = new CallMetrics(options.metricsRegistry);
  }

  async run(call: CallToRun, handler: (request: unknown, context: CallContext) => Promise<unknown>): Promise<CallOutcome> {
    if (deadlinePassed(call.deadline)) return { kind: 'late' };
    const context = new CallContext({ ...call.principal, request_id: call.requestId });
    const started = performance.now();
    const idempotentCall = call.idempotency && call.principal.tenant
      ? new IdempotentCall(context.tenant, call.path, call.idempotency.key, call.idempotency.fingerprint, call.deadline)
      : undefined;
    const run = () => withRequestId(context.requestId, () => handler(call.request, context));
    const outcome = await (idempotentCall ? runIdempotentCall(idempotentCall, run) : run()).then(
      (response): CallOutcome => ({ kind: 'answered', response, replayed: idempotentCall?.replayed ?? false }),
      (error: unknown) => this.outcomeOfFailure(call, error),
    );
    this.logCall(call, outcome, performance.now() - started);
    return outcome;
  }

  private outcomeOfFailure(call: CallToRun, error: unknown): CallOutcome {
    if (error instanceof ApiError) return { kind: 'refused', error };
    if (this.options.unavailableWhen?.(error)) {
      this.options.logger.warn({ err: error, request_id: call.requestId, rpc: call.rpc }, 'a dependency did not answer; the caller is told to retry');
      return { kind: 'unavailable' };
    }
    this.options.logger.error({ err: error, request_id: call.requestId, rpc: call.rpc }, 'unhandled error in gRPC handler');
    return { kind: 'failed' };
  }

  private logCall(call: CallToRun, outcome: CallOutcome, milliseconds: number): void {
    const name = outcomeName(outcome);
    this.metrics.observe(call.rpc, name, milliseconds / 1000);
    this.options.logger.info(
      { request_id: call.requestId, rpc: call.rpc, account_id: call.principal.tenant?.account_id, mode: call.principal.tenant?.mode, outcome: name, duration_ms: Math.round(milliseconds * 10) / 10 },
      'call',
    );
  }
}

/** How logs and metrics name an outcome. */
function outcomeName(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return outcome.replayed ? 'replayed' : 'ok';
    case 'refused':
      return outcome.error.code;
    case 'failed':
      return 'internal_error';
    default:
      return outcome.kind;
  }
}
