import { Router, type RequestHandler } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { PublishedReference, Route } from '../routes/route';
import { openApiDocument, type OpenApiDocument } from './openapi-document';

export const DOCS_PATH = '/v1/docs';

/** The OpenAPI document and the explorer page built from it, once per app. */
export interface ApiReference extends PublishedReference {
  document: OpenApiDocument;
  /** The explorer's scripts and styles, served from node_modules: this must work offline. */
  explorerAssets: RequestHandler;
}

/**
 * Serves only the files the explorer page links (relatively, e.g. `./swagger-ui.css`); any
 * other path under /v1/docs falls through to the API's own 404 envelope instead of exposing
 * the rest of swagger-ui-dist or its plain-text 404s.
 */
function linkedAssetsOnly(explorerHtml: string, assets: RequestHandler[]): RequestHandler {
  const linked = new Set([...explorerHtml.matchAll(/(?:href|src)="\.(\/[^"]+)"/g)].map((match) => match[1]!));
  const router = Router();
  // `/` too: the asset middleware redirects /v1/docs to /v1/docs/, where the relative links resolve.
  router.use((req, _res, next) => next(req.path === '/' || linked.has(req.path) ? undefined : 'router'), ...assets);
  return router;
}

export function buildApiReference(routes: readonly Route[]): ApiReference {
  const document = openApiDocument(routes);
  const options = { customSiteTitle: 'Ticketing API reference', swaggerOptions: { persistAuthorization: true } };
  const explorerHtml = swaggerUi.generateHTML(document, options);
  return { document, explorerHtml, explorerAssets: linkedAssetsOnly(explorerHtml, swaggerUi.serveFiles(document, options)) };
}
