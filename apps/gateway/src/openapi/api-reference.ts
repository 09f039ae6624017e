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
  // The page itself (/v1/docs) is the getDocs operation's, answered at once rather than redirected.
  router.use((req, _res, next) => next(linked.has(req.path) ? undefined : 'router'), ...assets);
  return router;
}

export function buildApiReference(routes: readonly Route[]): ApiReference {
  const document = openApiDocument(routes);
  const options = { customSiteTitle: 'Ticketing API reference', swaggerOptions: { persistAuthorization: true } };
  // The page links its files relatively (./swagger-ui.css): they resolve under /v1/docs/ whether it is read at /v1/docs or /v1/docs/.
  const explorerHtml = swaggerUi.generateHTML(document, options).replace('<head>', `<head>\n  <base href="${DOCS_PATH}/">`);
  return { document, explorerHtml, explorerAssets: linkedAssetsOnly(explorerHtml, swaggerUi.serveFiles(document, options)) };
}
