import { z } from 'zod';
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
 * Notes an answer the OpenAPI document does not describe for the operation: a success whose JSON
 * body its response schema (the one the document is generated from) refuses, or a 4xx whose
 * error code is not listed under that status (issue 8: a typed client must be able to trust the
 * document). Paths no operation serves (a probe of a missing route, a delivery page) are not the
 * document's.
 */
export function noteAnswer(method: string, pathAndQuery: string, status: number, body: unknown): void {
  const route = operationOf(method, pathAndQuery.split('?')[0]!);
  if (!route) return;
  const operation = `${route.operationId} (${route.method.toUpperCase()} ${route.path})`;
  if (status >= 200 && status < 300 && route.produces === 'application/json') {
    const parsed = route.response.safeParse(body);
    if (!parsed.success) undocumented.add(`${operation} answered ${status} with a body its schema refuses: ${z.prettifyError(parsed.error)}`);
    else for (const field of undeclaredFields(body, parsed.data)) undocumented.add(`${operation} answered ${status} with a field its schema does not declare: ${field}`);
    return;
  }
  if (status < 400 || status >= 500) return;
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  if (typeof code !== 'string') return;
  if (!operationErrors(route).get(status)?.includes(code as never)) undocumented.add(`${operation} answered ${status} ${code}`);
}

/**
 * Fields of `body` that parsing dropped: a response schema's objects strip what they do not
 * declare, so a field the document never mentions shows up as missing from the parsed value.
 */
function undeclaredFields(body: unknown, parsed: unknown, path = '$'): string[] {
  if (Array.isArray(body) && Array.isArray(parsed)) return body.flatMap((item, index) => undeclaredFields(item, parsed[index], `${path}[${index}]`));
  if (!isObject(body) || !isObject(parsed)) return [];
  return Object.keys(body).flatMap((key) => (key in parsed ? undeclaredFields(body[key], parsed[key], `${path}.${key}`) : [`${path}.${key}`]));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What this test file's calls answered that the document does not say they can. */
export function undocumentedAnswers(): string[] {
  return [...undocumented].sort();
}
