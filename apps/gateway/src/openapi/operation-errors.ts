import { ERROR_CODES, paramStatusOf, type ErrorCode } from '@ticketing/errors';
import { isImplemented, pathParamNames, type Route } from '../routes/route';

/** Error codes an operation can answer, grouped by HTTP status, in ascending status order. */
export type OperationErrors = Map<number, ErrorCode[]>;

const VALIDATION: ErrorCode[] = ['parameter_missing', 'parameter_invalid', 'parameter_unknown'];
const BODY_READING: ErrorCode[] = ['invalid_json', 'body_too_large', 'unsupported_media_type'];
const IDEMPOTENCY: ErrorCode[] = ['idempotency_key_reused', 'idempotency_key_in_use'];

const statusOf = (code: ErrorCode): number => ERROR_CODES[code].status;

/** What the pipeline in front of the handler can refuse, from the route's shape alone. */
function pipelineErrors(route: Route): [number, ErrorCode][] {
  const { access } = route;
  const keyed = access.kind !== 'public';
  const answers: [number, ErrorCode][] = [];
  const add = (codes: ErrorCode[], status = statusOf) => answers.push(...codes.map((code): [number, ErrorCode] => [status(code), code]));
  if (keyed) add(['missing_api_key', 'invalid_api_key', access.kind === 'secret' ? 'publishable_key_not_allowed' : 'secret_key_not_allowed']);
  if (keyed && access.scope !== null) add(['forbidden']);
  add(['rate_limited']);
  // Any URL may not be valid percent-encoding (refuseMalformedUrl), before any other check.
  add(['parameter_invalid']);
  // An operation not built yet stops after the key checks.
  if (!isImplemented(route)) {
    add(['not_implemented']);
    return answers;
  }
  add(VALIDATION);
  if (route.body) add(BODY_READING);
  if ('starting_after' in route.query.shape) add(['resource_missing'], paramStatusOf);
  if (pathParamNames(route.path).length > 0) add(['resource_missing']);
  if (route.method === 'post' && keyed) add(IDEMPOTENCY);
  return answers;
}

/** Every error code an operation can answer, by status: the pipeline's and the route's own. */
export function operationErrors(route: Route): OperationErrors {
  const answers = [...pipelineErrors(route), ...route.errors.map((code): [number, ErrorCode] => [paramStatusOf(code), code])];
  const byStatus: OperationErrors = new Map();
  for (const [status, code] of answers.sort(([left], [right]) => left - right)) {
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  return byStatus;
}
