import { ApiError } from '@ticketing/errors';

/** A call's outcome, kept to be thrown later rather than at once. */
export type Outcome<T> = { value: T } | { error: unknown };

export const outcomeOf = <T>(promise: Promise<T>): Promise<Outcome<T>> => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

/** Catalog said no (4xx): nothing changed there, and asking again would get the same answer. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500;
