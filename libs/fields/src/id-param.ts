import { ApiError } from '@ticketing/errors';

const ID_MAX_LENGTH = 255;

/** An id a caller passes (an order, a customer, a discount): empty means none. */
export function optionalIdParam(value: string, param: string): string | null {
  if (value.length > ID_MAX_LENGTH) throw new ApiError('parameter_invalid', `${param} must be at most ${ID_MAX_LENGTH} characters.`, { param });
  return value === '' ? null : value;
}

export function requiredIdParam(value: string, param: string): string {
  const id = optionalIdParam(value, param);
  if (id === null) throw new ApiError('parameter_missing', `Missing required parameter: ${param}.`, { param });
  return id;
}
