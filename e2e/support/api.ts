import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../tools/system/services';
import { noteAnswer } from './documented-answers';
import { gatewayUrl } from './system';

const run = promisify(execFile);

export interface AdminKey {
  account_id: string;
  secret_key: string;
}

/** A fresh account through the operators' admin command, with its all-scope test key. */
export async function createAccount(name = `e2e ${Date.now()}`): Promise<AdminKey> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tools/admin.ts'), 'account', 'create', '--name', name], {
    cwd: repoRoot,
  });
  return JSON.parse(stdout);
}

export async function activateLive(accountId: string): Promise<AdminKey> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tools/admin.ts'), 'account', 'activate-live', '--account', accountId], {
    cwd: repoRoot,
  });
  return JSON.parse(stdout);
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** One call to the gateway with a key (or none), JSON in and out. */
export async function call<T = any>(
  method: string,
  pathAndQuery: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${options.baseUrl ?? gatewayUrl}${pathAndQuery}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : undefined;
  noteAnswer(method, pathAndQuery, response.status, body);
  return { status: response.status, headers: response.headers, body };
}

/** A client bound to one key (and, for benchmarks, another copy of the system). */
export function as(key: string, baseUrl = gatewayUrl) {
  return {
    get: <T = any>(pathAndQuery: string) => call<T>('GET', pathAndQuery, { key, baseUrl }),
    post: <T = any>(pathAndQuery: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', pathAndQuery, { key, body, headers, baseUrl }),
    patch: <T = any>(pathAndQuery: string, body?: unknown) => call<T>('PATCH', pathAndQuery, { key, body, baseUrl }),
    put: <T = any>(pathAndQuery: string, body?: unknown) => call<T>('PUT', pathAndQuery, { key, body, baseUrl }),
    delete: <T = any>(pathAndQuery: string) => call<T>('DELETE', pathAndQuery, { key, baseUrl }),
  };
}
