import { internalTokenFor, type InternalClaims } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { callMetadata, type CallerOptions, type UnaryMethod } from './client';
import { fromOutcomeMessage } from './refusals';
import { grpcErrorToApiError } from './status-mapping';
import { MAX_CALLS_TOGETHER, type CallsTogetherMessage, type TogetherOutcomesMessage } from './together-messages';

export interface CallsTogetherOptions {
  /**
   * While a batch call of a principal is on its way, its next calls wait for it to end, then go
   * together at once (as GroupCommit batches statements): fewer, larger calls under a stream of
   * calls, for a service that shares work across the items of a call (catalog, decision 0054).
   * Without it, each turn's calls leave at the end of the turn, adding no wait.
   */
  waitForCallInFlight?: boolean;
}

interface WaitingCall<TRequest, TResponse> {
  request: TRequest;
  claims: InternalClaims;
  options: CallerOptions;
  deadlineAtMs: number;
  resolve(response: TResponse): void;
  reject(error: ApiError): void;
}

/**
 * The calls of one unary RPC made in the same turn of the event loop under the same principal,
 * sent as one call of its `…Together` RPC (decision 0058). Each call keeps what it would carry
 * alone (its request id, deadline and Idempotency-Key, in its item's metadata) and gets its own
 * outcome, as `callUnary` would give it: its response, the ApiError that refused it, or, when the
 * whole call failed, the failure's ApiError (an unknown outcome, as for a call sent alone).
 */
export class CallsTogether<TRequest, TResponse> {
  /** Calls waiting to be sent, by the internal token of their principal. */
  private readonly waiting = new Map<string, Array<WaitingCall<TRequest, TResponse>>>();
  /**
   * With `waitForCallInFlight`, how many batch calls of each principal (by token) are on their
   * way: one, or more while full batches leave without waiting.
   */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly method: UnaryMethod<CallsTogetherMessage<TRequest>, TogetherOutcomesMessage<TResponse>>,
    private readonly options: CallsTogetherOptions = {},
  ) {}

  call(request: TRequest, claims: InternalClaims, options: CallerOptions): Promise<TResponse> {
    const token = internalTokenFor(claims, options.tokenSecret);
    return new Promise((resolve, reject) => {
      let calls = this.waiting.get(token);
      if (!calls) {
        calls = [];
        this.waiting.set(token, calls);
        // With a call of the principal on its way, these leave when it ends.
        if (!this.inFlight.has(token)) setImmediate(() => this.sendWaiting(token, calls!));
      }
      calls.push({ request, claims, options, deadlineAtMs: Date.now() + options.deadlineMs, resolve, reject });
      if (calls.length === MAX_CALLS_TOGETHER) this.sendWaiting(token, calls);
    });
  }

  private sendWaiting(token: string, calls: Array<WaitingCall<TRequest, TResponse>>): void {
    // A full batch left before its turn came; the calls made since wait in a batch of their own.
    if (this.waiting.get(token) !== calls) return;
    this.waiting.delete(token);
    if (this.options.waitForCallInFlight) this.inFlight.set(token, (this.inFlight.get(token) ?? 0) + 1);
    // The whole call may last as long as its longest-waiting item; each item's own deadline travels with it.
    const deadline = new Date(Math.max(...calls.map((call) => call.deadlineAtMs)));
    const message: CallsTogetherMessage<TRequest> = {
      calls: calls.map(({ request, claims, options, deadlineAtMs: itemDeadline }) => ({
        metadata: {
          request_id: claims.request_id,
          deadline_at_ms: itemDeadline,
          idempotency_key: options.idempotency?.key ?? '',
          idempotency_fingerprint: options.idempotency?.fingerprint ?? '',
        },
        request,
      })),
    };
    this.method(message, callMetadata(token, deadline), { deadline }, (error, answer) => {
      this.sendAfter(token);
      if (error) {
        const failure = grpcErrorToApiError(error);
        for (const call of calls) call.reject(failure);
        return;
      }
      calls.forEach((call, index) => {
        const answered = answer.outcomes[index];
        if (answered?.replayed) call.options.idempotency?.onReplayed();
        const outcome = fromOutcomeMessage(answered?.outcome);
        if (outcome instanceof ApiError) call.reject(outcome);
        else call.resolve(outcome);
      });
    });
  }

  /** With `waitForCallInFlight`, a call of the principal has ended: once none is on its way, the calls that waited go. */
  private sendAfter(token: string): void {
    if (!this.options.waitForCallInFlight) return;
    const stillInFlight = this.inFlight.get(token)! - 1;
    if (stillInFlight > 0) {
      this.inFlight.set(token, stillInFlight);
      return;
    }
    this.inFlight.delete(token);
    const next = this.waiting.get(token);
    if (next) this.sendWaiting(token, next);
  }
}
