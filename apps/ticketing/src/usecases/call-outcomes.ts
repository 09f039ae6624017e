import { ApiError } from '@ticketing/errors';

/** Catalog said no (4xx): nothing changed there, and asking again would get the same answer. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500;
