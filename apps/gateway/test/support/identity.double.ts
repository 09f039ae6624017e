import { generateApiKey, hashApiKey, type KeyKind, type Mode } from '@ticketing/auth';
import type { identityV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';

interface StoredKey {
  accountId: string;
  hash: string;
  record: identityV1.ApiKey;
  /** The account's own rate limit, as identity would carry it. */
  rateLimitPerSecond?: number;
}

export interface IssuedKey {
  secret: string;
  accountId: string;
  principal: identityV1.ApiKeyPrincipal;
}

/** Identity as the gateway sees it over gRPC, in memory: keys by hash, one account per key's tenant. */
export class IdentityDouble {
  private readonly keys: StoredKey[] = [];
  verifyCalls = 0;
  /** Account names changed since their keys were issued ('Double Account' otherwise). */
  private readonly accountNames = new Map<string, string>();
  /** Runs after VerifyApiKey has read a key and before it answers: what happens meanwhile is too late for its answer. */
  afterVerifyRead: (() => Promise<void>) | null = null;
  /** Minting with this label answers a CreatedApiKey without its key, which the gateway cannot present. */
  static readonly BROKEN_LABEL = 'answer without the key';

  issueKey(options: { kind?: KeyKind; mode?: Mode; scopes: readonly string[]; accountId?: string; rateLimitPerSecond?: number }): IssuedKey {
    const { kind = 'secret', mode = 'test', scopes } = options;
    const accountId = options.accountId ?? newId('acct');
    const generated = generateApiKey(kind, mode);
    const record: identityV1.ApiKey = {
      id: newId('key'),
      prefix: generated.prefix,
      label: 'issued by the test',
      scopes: [...scopes],
      mode,
      kind,
      created_at: new Date().toISOString(),
      revoked_at: '',
    };
    const stored = { accountId, hash: generated.hash, record, rateLimitPerSecond: options.rateLimitPerSecond };
    this.keys.push(stored);
    return { secret: generated.secret, accountId, principal: this.principal(stored) };
  }

  /** Revokes a key in identity alone, as when the gateway's Redis cannot hear of it. */
  revoke(secret: string): void {
    const hash = hashApiKey(secret);
    this.keys.find((candidate) => candidate.hash === hash)!.record.revoked_at = new Date().toISOString();
  }

  renameAccount(accountId: string, name: string): void {
    this.accountNames.set(accountId, name);
  }

  private principal({ accountId, record, rateLimitPerSecond }: StoredKey): identityV1.ApiKeyPrincipal {
    return {
      key_id: record.id,
      prefix: record.prefix,
      account_id: accountId,
      mode: record.mode,
      kind: record.kind,
      scopes: record.scopes,
      revoked: record.revoked_at !== '',
      rate_limit_per_second: rateLimitPerSecond,
      account: { id: accountId, name: this.accountNames.get(accountId) ?? 'Double Account', mode: record.mode, live_mode_activated: false, created_at: '2027-01-01T00:00:00.000Z' },
    };
  }

  handlers(): AsyncServiceImplementation<identityV1.IdentityServiceServer> {
    return {
      verifyApiKey: async ({ key_hash }) => {
        this.verifyCalls += 1;
        const key = this.keys.find((candidate) => candidate.hash === key_hash);
        if (!key) throw ApiError.resourceMissing('api key', key_hash.slice(0, 8));
        const principal = this.principal(key);
        await this.afterVerifyRead?.();
        return principal;
      },
      createApiKey: async (request, context) => {
        const issued = this.issueKey({
          kind: (request.kind || 'secret') as KeyKind,
          mode: (request.mode || context.tenant.mode) as Mode,
          scopes: request.scopes,
          accountId: context.tenant.accountId,
        });
        const stored = this.keys.at(-1)!;
        stored.record.label = request.label;
        if (request.label === IdentityDouble.BROKEN_LABEL) return { key: undefined, secret: issued.secret };
        return { key: stored.record, secret: issued.secret };
      },
      listApiKeys: async ({ page }, context) => {
        const mine = this.keys.filter((key) => key.accountId === context.tenant.accountId && key.record.mode === context.tenant.mode).reverse();
        const limit = page?.limit ?? 20;
        return { data: mine.slice(0, limit).map((key) => key.record), has_more: mine.length > limit };
      },
      revokeApiKey: async ({ prefix }, context) => {
        const key = this.keys.find((candidate) => candidate.accountId === context.tenant.accountId && candidate.record.prefix === prefix);
        if (!key) throw ApiError.resourceMissing('api key', prefix);
        key.record.revoked_at = new Date().toISOString();
        return key.record;
      },
    };
  }
}
