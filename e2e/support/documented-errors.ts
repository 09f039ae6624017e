import { operationErrors } from '../../apps/gateway/src/openapi/operation-errors';
import { routeTable } from '../../apps/gateway/src/routes';
import type { Route } from '../../apps/gateway/src/routes/route';
import { compareRoutePaths } from '../../apps/gateway/src/routes/route-order';

/** Each operation, most literal path first, with the pattern its path matches. */
const operations = [...routeTable]
  .sort((a, b) => compareRoutePaths(a.path, b.path))
  .map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

function operationOf(method: string, path: string): Route | undefined {
  return operations.find(({ route, pattern }) => route.method === method.toLowerCase() && pattern.test(path))?.route;
}

const undocumented = new Set<string>();

/**
 * Notes a 4xx answer whose error code the OpenAPI document does not list under that status for
 * the operation (issue 8: statuses an operation really answers are listed on it). Paths no
 * operation serves (a probe of a missing route, a delivery page) are not the document's.
 */
export function noteAnswer(method: string, pathAndQuery: string, status: number, body: unknown): void {
  if (status < 400 || status >= 500) return;
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  const route = operationOf(method, pathAndQuery.split('?')[0]!);
  if (!route || typeof code !== 'string') return;
  if (!operationErrors(route).get(status)?.includes(code as never)) undocumented.add(`${route.operationId} (${route.method.toUpperCase()} ${route.path}) answered ${status} ${code}`);
}

/** What this test file's calls answered that the document does not say they can. */
export function undocumentedAnswers(): string[] {
  return [...undocumented].sort();
}
