import { ApiError, isErrorCode } from '@ticketing/errors';

/**
 * A refusal as a batch call answers it for one item (common.v1.Refusal): what that item's own
 * call would have failed with, carried as the single-call errors are (status-mapping.ts).
 */
export interface RefusalMessage {
  code: string;
  message: string;
  /** Empty when the refusal names no parameter. */
  param: string;
}

export function toRefusalMessage(error: ApiError): RefusalMessage {
  return { code: error.code, message: error.message, param: error.param ?? '' };
}

/** The ApiError a refusal stands for; a code this build does not know is an internal error, as in grpcErrorToApiError. */
export function fromRefusalMessage(refusal: RefusalMessage): ApiError {
  if (!isErrorCode(refusal.code)) return new ApiError('internal_error', `A batch call refused an item with the unknown code '${refusal.code}'.`);
  return new ApiError(refusal.code, refusal.message, { param: refusal.param || undefined });
}

/**
 * One item's outcome as a batch call's answer carries it, in a oneof: its value under the value's
 * field name (`$case`), or its refusal.
 */
export type OutcomeMessage<Case extends string, Value> = { $case: Case; value: Value } | { $case: 'refusal'; value: RefusalMessage };

/** An item's value, or the ApiError that refused it; an item the answer left without an outcome is an internal error. */
export function fromOutcomeMessage<Value>(outcome: OutcomeMessage<string, Value> | undefined): Value | ApiError {
  if (!outcome) return new ApiError('internal_error', 'A batch call answered an item without its outcome.');
  return outcome.$case === 'refusal' ? fromRefusalMessage(outcome.value as RefusalMessage) : (outcome.value as Value);
}
