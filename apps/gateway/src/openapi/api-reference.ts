import type { RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { Route } from '../routes/route';
import { openApiDocument, type OpenApiDocument } from './openapi-document';

export const DOCS_PATH = '/v1/docs';

/** The OpenAPI document and the explorer page built from it, once per app. */
export interface ApiReference {
  document: OpenApiDocument;
  explorerHtml: string;
  /** The explorer's scripts and styles, served from node_modules: this must work offline. */
  explorerAssets: RequestHandler[];
}

export function buildApiReference(routes: readonly Route[]): ApiReference {
  const document = openApiDocument(routes);
  const options = { customSiteTitle: 'Ticketing API reference', swaggerOptions: { persistAuthorization: true } };
  return {
    document,
    // The page links its assets relatively; the asset middleware redirects /v1/docs to /v1/docs/.
    explorerHtml: swaggerUi.generateHTML(document, options),
    explorerAssets: swaggerUi.serveFiles(document, options),
  };
}
