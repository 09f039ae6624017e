/**
 * Every error the public API can answer with, in one place. A code is a stable snake_case
 * string clients branch on; its HTTP status and type are fixed here and nowhere else.
 */
export const ERROR_TYPES = [
  'authentication_error',
  'authorization_error',
  'invalid_request_error',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface ErrorCodeDefinition {
  readonly status: number;
  readonly type: ErrorType;
  /** Status when a request parameter (not the URL) names the thing at fault. */
  readonly paramStatus?: number;
  /** Seconds a client should wait before retrying, sent as `Retry-After`: set on codes a retry resolves. */
  readonly retryAfterSeconds?: number;
}

export const ERROR_CODES = {
  missing_api_key: { status: 401, type: 'authentication_error' },
  invalid_api_key: { status: 401, type: 'authentication_error' },
  publishable_key_not_allowed: { status: 401, type: 'authentication_error' },
  secret_key_not_allowed: { status: 401, type: 'authentication_error' },
  forbidden: { status: 403, type: 'authorization_error' },
  scope_not_held: { status: 403, type: 'authorization_error' },
  mode_unavailable: { status: 403, type: 'authorization_error' },
  mode_not_allowed: { status: 403, type: 'authorization_error' },
  admission_token_required: { status: 403, type: 'authorization_error' },
  admission_token_invalid: { status: 403, type: 'authorization_error' },
  admission_token_used: { status: 403, type: 'authorization_error' },
  parameter_missing: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  cannot_revoke_self: { status: 400, type: 'invalid_request_error' },
  resource_missing: { status: 404, paramStatus: 400, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  method_not_allowed: { status: 405, type: 'invalid_request_error' },
  malformed_request: { status: 400, type: 'invalid_request_error' },
  request_timeout: { status: 408, type: 'invalid_request_error' },
  body_too_large: { status: 413, type: 'invalid_request_error' },
  headers_too_large: { status: 431, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  key_limit_reached: { status: 409, type: 'invalid_request_error' },
  sold_out: { status: 409, type: 'invalid_request_error' },
  event_not_on_sale: { status: 409, type: 'invalid_request_error' },
  tier_not_on_sale: { status: 409, type: 'invalid_request_error' },
  reservation_released: { status: 409, type: 'invalid_request_error' },
  reservation_committed: { status: 409, type: 'invalid_request_error' },
  reservation_not_committed: { status: 409, type: 'invalid_request_error' },
  customer_exists: { status: 409, type: 'invalid_request_error' },
  issuance_expired: { status: 409, type: 'invalid_request_error' },
  upgrade_expired: { status: 409, type: 'invalid_request_error' },
  ticket_not_valid: { status: 409, type: 'invalid_request_error' },
  ticket_changed: { status: 409, type: 'invalid_request_error' },
  ticket_already_held: { status: 409, type: 'invalid_request_error' },
  seats_unavailable: { status: 409, type: 'invalid_request_error' },
  seat_hold_unavailable: { status: 409, type: 'invalid_request_error' },
  admission_holds_seats: { status: 409, type: 'invalid_request_error' },
  waiting_room_disabled: { status: 409, type: 'invalid_request_error' },
  discount_code_taken: { status: 409, type: 'invalid_request_error' },
  discount_inactive: { status: 409, type: 'invalid_request_error' },
  discount_not_applicable: { status: 409, type: 'invalid_request_error' },
  redemption_limit_reached: { status: 409, type: 'invalid_request_error' },
  customer_redemption_limit_reached: { status: 409, type: 'invalid_request_error' },
  event_status_transition_invalid: { status: 409, type: 'invalid_request_error' },
  event_finalized: { status: 409, type: 'invalid_request_error' },
  event_currency_locked: { status: 409, type: 'invalid_request_error' },
  capacity_below_committed: { status: 409, type: 'invalid_request_error' },
  redemption_limit_below_redeemed: { status: 409, type: 'invalid_request_error' },
  seatmap_locked: { status: 409, type: 'invalid_request_error' },
  endpoint_deleted: { status: 409, type: 'invalid_request_error' },
  endpoint_limit_reached: { status: 409, type: 'invalid_request_error' },
  payment_intent_unexpected_state: { status: 409, type: 'invalid_request_error' },
  payment_intent_used: { status: 409, type: 'invalid_request_error' },
  live_payments_unavailable: { status: 409, type: 'invalid_request_error' },
  balance_insufficient: { status: 409, type: 'invalid_request_error' },
  payouts_not_enabled: { status: 409, type: 'invalid_request_error' },
  connect_account_missing: { status: 404, type: 'invalid_request_error' },
  idempotency_key_reused: { status: 409, type: 'idempotency_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error', retryAfterSeconds: 1 },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  not_implemented: { status: 501, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error', retryAfterSeconds: 1 },
  internal_error: { status: 500, type: 'api_error' },
} as const satisfies Record<string, ErrorCodeDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The status of a code when a request parameter, not the URL, names the thing at fault. */
export function paramStatusOf(code: ErrorCode): number {
  const definition: ErrorCodeDefinition = ERROR_CODES[code];
  return definition.paramStatus ?? definition.status;
}

/**
 * `Retry-After` for a code a plain retry resolves (the first attempt finishing, a service coming
 * back): a hint for generic HTTP clients, which honour it on 503. A 429 sets its own, the seconds
 * until its window resets.
 */
export function retryAfterOf(code: ErrorCode): number | undefined {
  const definition: ErrorCodeDefinition = ERROR_CODES[code];
  return definition.retryAfterSeconds;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
