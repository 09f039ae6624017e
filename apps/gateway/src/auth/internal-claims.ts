import type { CachedKey, InternalClaims } from '@ticketing/auth';

/** What services are told about the caller: the tenant and key, never anything from the request body. */
export function internalClaims(requestId: string, key: CachedKey | undefined): InternalClaims {
  if (!key) return { request_id: requestId };
  return {
    request_id: requestId,
    tenant: { account_id: key.account_id, mode: key.mode },
    key: { id: key.key_id, prefix: key.prefix, kind: key.kind, scopes: key.scopes },
  };
}
