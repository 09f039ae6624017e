import { z } from 'zod';
import { defineRoute, publicAccess } from './route';

const TAG = 'Public';

export const publicRoutes = [
  defineRoute({
    operationId: 'getHealth',
    method: 'get',
    path: '/v1/health',
    summary: 'Uptime check',
    tag: TAG,
    access: publicAccess,
    response: z.object({ object: z.literal('health'), status: z.literal('ok'), uptime_seconds: z.number().int() }),
    handler: async () => ({ object: 'health' as const, status: 'ok' as const, uptime_seconds: Math.floor(process.uptime()) }),
  }),
  defineRoute({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This API described in OpenAPI 3.1',
    tag: TAG,
    access: publicAccess,
    response: z.looseObject({ openapi: z.string() }).meta({ description: 'An OpenAPI 3.1 document.' }),
    handler: async (_input, { reference }) => ({ ...reference.document }),
  }),
  defineRoute({
    operationId: 'getDocs',
    method: 'get',
    path: '/v1/docs',
    summary: 'Interactive API explorer',
    tag: TAG,
    access: publicAccess,
    produces: 'text/html',
    response: z.string(),
    handler: async (_input, { reference }) => reference.explorerHtml,
  }),
];
