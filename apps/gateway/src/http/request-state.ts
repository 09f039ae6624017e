import type { Response } from 'express';
import type { CachedKey } from '@ticketing/auth';
import type { CallerOptions } from '@ticketing/grpc';
import type { Route, RouteInput } from '../routes/route';

/** What the gateway learns about a request as it passes the pipeline, kept in `res.locals`. */
export interface RequestState {
  requestId: string;
  /** The route-table entry the request matched, once it has. */
  route?: Route;
  /** The authenticated key, on keyed routes once authentication passed. */
  key?: CachedKey;
  /** Params, query and body after validation: the only input handlers read. */
  input?: RouteInput;
  /** On a POST with an Idempotency-Key that this request holds: what its service calls carry. */
  idempotency?: CallerOptions['idempotency'];
  /** Set once the request was counted against its client address's budget, so it is counted once. */
  countedPerClient?: true;
}

export function requestState(res: Response): RequestState {
  return res.locals as RequestState;
}
