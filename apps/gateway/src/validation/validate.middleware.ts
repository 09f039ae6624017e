import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { requestState } from '../http/request-state';
import type { Route } from '../routes/route';
import { apiValidationMessages } from './api-messages';
import { refuseUnstorableText } from './unstorable-text';
import { validationError, type InputSource } from './validation-error';

function parse<T extends z.ZodType>(schema: T, input: unknown, source: InputSource): z.output<T> {
  refuseUnstorableText(input);
  const result = schema.safeParse(input, { error: apiValidationMessages });
  if (!result.success) throw validationError(result.error, input, source);
  return result.data;
}

/** Path parameters, then query, then body: free of text no service can store, then against the route's strict schemas. */
export function validateInput(route: Route): RequestHandler {
  return (req, res, next) => {
    requestState(res).input = {
      params: parse(route.params, req.params, 'params'),
      query: parse(route.query, req.query, 'query'),
      body: route.body && parse(route.body, req.body ?? {}, 'body'),
    };
    next();
  };
}
