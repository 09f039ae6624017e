import { Metadata } from '@grpc/grpc-js';
import { internalTokenFor, type InternalClaims } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { CallerOptions, UnaryMethod } from './client';
import { fromOutcomeMessage } from './refusals';
import { DEADLINE_METADATA, INTERNAL_TOKEN_METADATA } from './server';
import { grpcErrorToApiError } from './status-mapping';
import { MAX_CALLS_TOGETHER, type CallsTogetherMessage, type TogetherOutcomesMessage } from './together-messages';

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
  /** Calls waiting for the next turn, by the internal token of their principal. */
  private readonly waiting = new Map<string, Array<WaitingCall<TRequest, TResponse>>>();

  constructor(private readonly method: UnaryMethod<CallsTogetherMessage<TRequest>, TogetherOutcomesMessage<TResponse>>) {}

  call(request: TRequest, claims: InternalClaims, options: CallerOptions): Promise<TResponse> {
    const token = internalTokenFor(claims, options.tokenSecret);
    return new Promise((resolve, reject) => {
      let calls = this.waiting.get(token);
      if (!calls) {
        calls = [];
        this.waiting.set(token, calls);
        setImmediate(() => this.sendWaiting(token, calls!));
      }
      calls.push({ request, claims, options, deadlineAtMs: Date.now() + options.deadlineMs, resolve, reject });
      if (calls.length === MAX_CALLS_TOGETHER) this.sendWaiting(token, calls);
    });
  }

  private sendWaiting(token: string, calls: Array<WaitingCall<TRequest, TResponse>>): void {
    // A full batch left before its turn came; the calls made since wait in a batch of their own.
    if (this.waiting.get(token) !== calls) return;
    this.waiting.delete(token);
    // A call waits (up to its deadline) for a service that is restarting instead of failing at once.
    const metadata = new Metadata({ waitForReady: true });
    metadata.set(INTERNAL_TOKEN_METADATA, token);
    // The whole call may last as long as its longest-waiting item; each item's own deadline travels with it.
    const deadlineAtMs = Math.max(...calls.map((call) => call.deadlineAtMs));
    metadata.set(DEADLINE_METADATA, String(deadlineAtMs));
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
    this.method(message, metadata, { deadline: new Date(deadlineAtMs) }, (error, answer) => {
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
}
