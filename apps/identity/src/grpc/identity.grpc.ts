import type { identityV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { KeyCache } from '../cache/key-cache';
import type { PrismaClient } from '../db';
import type { Account } from '../domain/account';
import type { ApiKeyRecord } from '../domain/api-key';
import { CreateApiKeyUseCase } from '../usecases/create-api-key/create-api-key.usecase';
import { ListApiKeysUseCase } from '../usecases/list-api-keys/list-api-keys.usecase';
import { RevokeApiKeyUseCase } from '../usecases/revoke-api-key/revoke-api-key.usecase';
import { VerifyApiKeyUseCase } from '../usecases/verify-api-key/verify-api-key.usecase';

/** The public record of a key: never its hash, never its plaintext. */
function toApiKeyMessage(key: ApiKeyRecord): identityV1.ApiKey {
  return {
    id: key.id,
    prefix: key.prefix,
    label: key.label,
    scopes: key.scopes,
    mode: key.mode,
    kind: key.kind,
    created_at: key.created_at.toISOString(),
    revoked_at: key.revoked_at?.toISOString() ?? '',
  };
}

function toAccountMessage(account: Account, mode: string): identityV1.Account {
  return {
    id: account.id,
    name: account.name,
    mode,
    live_mode_activated: account.live_mode_activated,
    created_at: account.created_at.toISOString(),
  };
}

/**
 * What the gateway authorizes a request with and caches under the key's hash: the key, with what
 * the gateway needs of its account (its rate limit, and what GET /v1/account shows).
 */
function toPrincipalMessage(key: ApiKeyRecord, account: Account): identityV1.ApiKeyPrincipal {
  return {
    key_id: key.id,
    prefix: key.prefix,
    account_id: key.account_id,
    mode: key.mode,
    kind: key.kind,
    scopes: key.scopes,
    revoked: key.revoked_at !== null,
    rate_limit_per_second: account.rate_limit_per_second ?? undefined,
    account: toAccountMessage(account, key.mode),
  };
}

/** Transport only: decode, call one use case with the token's tenant and key, encode. */
export function identityGrpcHandlers(prisma: PrismaClient, keyCache: KeyCache): AsyncServiceImplementation<identityV1.IdentityServiceServer> {
  const verifyApiKey = new VerifyApiKeyUseCase(prisma);
  const createApiKey = new CreateApiKeyUseCase(prisma);
  const listApiKeys = new ListApiKeysUseCase(prisma);
  const revokeApiKey = new RevokeApiKeyUseCase(prisma, keyCache);
  return {
    // The gateway resolves keys before it knows the tenant, so this one needs no tenant.
    verifyApiKey: async (request) => {
      const { key, account } = await verifyApiKey.execute(request.key_hash);
      return toPrincipalMessage(key, account);
    },
    createApiKey: async (request, context) => {
      const minted = await createApiKey.execute(context.tenant, context.key, request);
      return { key: toApiKeyMessage(minted.key), secret: minted.secret ?? '' };
    },
    listApiKeys: async (request, context) => {
      const page = await listApiKeys.execute(context.tenant, request.page);
      return { data: page.data.map(toApiKeyMessage), has_more: page.has_more };
    },
    revokeApiKey: async (request, context) => toApiKeyMessage(await revokeApiKey.execute(context.tenant, context.key.id, request.prefix)),
  };
}
