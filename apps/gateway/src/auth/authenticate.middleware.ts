import type { RequestHandler } from 'express';
import { requestState } from '../http/request-state';
import type { KeyVerifier } from './key-verifier';
import { presentedApiKey } from './presented-api-key';

export function authenticate(verifier: KeyVerifier): RequestHandler {
  return async (req, res, next) => {
    const state = requestState(res);
    state.key = await verifier.verify(presentedApiKey(req.headers), state.requestId);
    next();
  };
}
