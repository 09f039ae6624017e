import type { Request, RequestHandler, Response } from 'express';
import { requestState } from '../http/request-state';
import type { KeyVerifier } from './key-verifier';
import { presentedApiKey } from './presented-api-key';

/** Runs before a presented key is looked up in identity (not for keys already verified); may refuse. */
export type LookupGuard = (req: Request, res: Response) => Promise<void>;

export function authenticate(verifier: KeyVerifier, beforeLookup: LookupGuard): RequestHandler {
  return async (req, res, next) => {
    const state = requestState(res);
    state.key = await verifier.verify(presentedApiKey(req.rawHeaders), state.requestId, () => beforeLookup(req, res));
    next();
  };
}
