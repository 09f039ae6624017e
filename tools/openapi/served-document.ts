import { openApiDocument, type OpenApiDocument } from '../../apps/gateway/src/openapi/openapi-document';
import { routeTable } from '../../apps/gateway/src/routes';

/** The document GET /v1/openapi.json serves, built in-process from the route table: no server needed. */
export function servedOpenApiDocument(): OpenApiDocument {
  return openApiDocument(routeTable);
}
