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

export function toOutcomeMessage<Case extends string, Value>(valueCase: Case, outcome: Value | ApiError): OutcomeMessage<Case, Value> {
  return outcome instanceof ApiError ? { $case: 'refusal', value: toRefusalMessage(outcome) } : { $case: valueCase, value: outcome };
}

/** An item's value, or the ApiError that refused it; an item the answer left without an outcome is an internal error. */
export function fromOutcomeMessage<Value>(outcome: OutcomeMessage<string, Value> | undefined): Value | ApiError {
  if (!outcome) return new ApiError('internal_error', 'A batch call answered an item without its outcome.');
  return outcome.$case === 'refusal' ? fromRefusalMessage(outcome.value as RefusalMessage) : (outcome.value as Value);
}

/**
 * Runs each item of a batch call as its own call would run, together: each one's value, or the
 * ApiError that refused it. Anything else thrown fails the whole call, leaving every item's
 * outcome unknown to the caller, as a failed single call would.
 */
export function eachOutcome<Item, Value>(items: readonly Item[], run: (item: Item) => Promise<Value>): Promise<Array<Value | ApiError>> {
  return Promise.all(
    items.map((item) =>
      run(item).catch((error: unknown) => {
        if (error instanceof ApiError) return error;
        throw error;
      }),
    ),
  );
}

/** A batch call's answer: one outcome per item, in the request's order (catalog.v1.ReservationOutcomes, say). */
export interface OutcomesMessage<Case extends string, Value> {
  outcomes: Array<{ outcome: OutcomeMessage<Case, Value> | undefined }>;
}

/** A batch call's handler: each item run as its own call would be, together, and answered as its value under `valueCase` or its refusal. */
export async function answerEach<Case extends string, Item, Value>(valueCase: Case, items: readonly Item[], run: (item: Item) => Promise<Value>): Promise<OutcomesMessage<Case, Value>> {
  return { outcomes: (await eachOutcome(items, run)).map((outcome) => ({ outcome: toOutcomeMessage(valueCase, outcome) })) };
}

/** A batch call's answer as each item's value, or the ApiError that refused it. */
export function outcomesOf<Value>(answer: OutcomesMessage<string, Value>): Array<Value | ApiError> {
  return answer.outcomes.map(({ outcome }) => fromOutcomeMessage(outcome));
}
