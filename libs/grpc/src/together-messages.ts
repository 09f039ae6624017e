import { ApiError } from '@ticketing/errors';
import type { CallOutcome } from './call-runner';
import { toRefusalMessage, type OutcomeMessage } from './refusals';
import { internalApiError } from './status-mapping';

/**
 * The messages of a batch call standing for calls of one unary RPC made at the same moment
 * (decision 0058; ticketing.v1.IssueTicketsTogetherRequest and IssueTicketsOutcomes, say), as
 * both sides of libs/grpc read and write them whatever the RPC.
 */

/** The most calls one batch call may stand for (decision 0058). */
export const MAX_CALLS_TOGETHER = 500;

/** What a call sent alone carries as metadata, as an item of a batch call carries it (common.v1.CallMetadata). */
export interface CallMetadataMessage {
  request_id: string;
  /** 0 for none. */
  deadline_at_ms: number;
  /** Both empty when the client sent no Idempotency-Key. */
  idempotency_key: string;
  idempotency_fingerprint: string;
}

/** An item of a batch call (ticketing.v1.IssueTicketsCall, say): a call's request and its metadata. */
export interface CallTogetherMessage<TRequest> {
  metadata: CallMetadataMessage | undefined;
  request: TRequest | undefined;
}

/** A batch call's request: the calls it stands for. */
export interface CallsTogetherMessage<TRequest> {
  calls: Array<CallTogetherMessage<TRequest>>;
}

/** A batch call's answer: one outcome per call, in order, and whether it was an earlier call's under the same Idempotency-Key. */
export interface TogetherOutcomesMessage<TResponse> {
  outcomes: Array<{ outcome: OutcomeMessage<'response', TResponse> | undefined; replayed: boolean }>;
}

/** An item's refusal, as its call sent alone would have failed. */
const refusedWith = (error: ApiError) => ({ outcome: { $case: 'refusal' as const, value: toRefusalMessage(error) }, replayed: false });

/** A batch call's answer for one item (ticketing.v1.IssueTicketsOutcome, say): what a call sent alone answers, as the gateway reads it. */
export function togetherOutcomeOf(outcome: CallOutcome): { outcome: OutcomeMessage<'response', unknown>; replayed: boolean } {
  switch (outcome.kind) {
    case 'answered':
      return { outcome: { $case: 'response', value: outcome.response }, replayed: outcome.replayed };
    case 'refused':
      return refusedWith(outcome.error);
    case 'unavailable':
    case 'late':
      return refusedWith(ApiError.serviceUnavailable());
    case 'failed':
      return refusedWith(internalApiError());
  }
}
