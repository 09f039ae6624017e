import type { KeyKind, Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { IdentityDb } from '../db';
import type { Account } from '../domain/account';
import type { ApiKeyRecord, ManagedKeys } from '../domain/api-key';
import { accountColumns } from './account.repository';

const keyColumns = {
  id: true,
  account_id: true,
  mode: true,
  kind: true,
  prefix: true,
  key_hash: true,
  label: true,
  scopes: true,
  created_at: true,
  revoked_at: true,
} as const;

type KeyRow = Omit<ApiKeyRecord, 'mode' | 'kind'> & { mode: string; kind: string };

/** The table's CHECK constraints admit only these values. */
function toRecord(row: KeyRow): ApiKeyRecord {
  return { ...row, mode: row.mode as Mode, kind: row.kind as KeyKind };
}

export interface NewApiKey {
  kind: KeyKind;
  prefix: string;
  key_hash: string;
  label: string;
  scopes: string[];
}

const managedScope = ({ accountId, modes }: ManagedKeys) => ({ account_id: accountId, mode: { in: [...modes] } });

/**
 * API keys. Every method but the lookup by hash takes the tenant, the keys a caller manages
 * (keysManagedBy), or, for the account-wide count, the account.
 */
export class ApiKeyRepository {
  constructor(private readonly db: IdentityDb) {}

  async create(tenant: Tenant, fields: NewApiKey): Promise<ApiKeyRecord> {
    return toRecord(await this.db.apiKey.create({ data: { id: newId('key'), ...tenantScope(tenant), ...fields }, select: keyColumns }));
  }

  /**
   * The one unscoped read: resolving a presented key is how the gateway learns the tenant in
   * the first place. The hash is of 192 random bits, so it cannot be guessed. The key's account
   * comes with it, in the same call, for what the gateway caches about it.
   */
  async findByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account } | null> {
    const row = await this.db.apiKey.findUnique({ where: { key_hash: keyHash }, select: { ...keyColumns, account: { select: accountColumns } } });
    if (!row) return null;
    const { account, ...key } = row;
    return { key: toRecord(key), account };
  }

  async findByPrefix(managed: ManagedKeys, prefix: string): Promise<ApiKeyRecord | null> {
    const row = await this.db.apiKey.findFirst({ where: { prefix, ...managedScope(managed) }, select: keyColumns });
    return row && toRecord(row);
  }

  /** Whether the key exists and is not revoked. */
  async isActive(id: string): Promise<boolean> {
    return (await this.db.apiKey.count({ where: { id, revoked_at: null } })) === 1;
  }

  /** Hashes of the account's active keys in both modes: the gateway's cache entries are named by them. */
  async activeKeyHashes(accountId: string): Promise<string[]> {
    const rows = await this.db.apiKey.findMany({ where: { account_id: accountId, revoked_at: null }, select: { key_hash: true } });
    return rows.map((row) => row.key_hash);
  }

  /** Active keys of an account in both modes: the limit is per account, not per tenant. */
  countActiveInAccount(accountId: string): Promise<number> {
    return this.db.apiKey.count({ where: { account_id: accountId, revoked_at: null } });
  }

  /** Sets revoked_at once; an already revoked key keeps its first revocation time. */
  async revoke(managed: ManagedKeys, id: string): Promise<ApiKeyRecord | null> {
    const scope = managedScope(managed);
    await this.db.apiKey.updateMany({ where: { id, ...scope, revoked_at: null }, data: { revoked_at: new Date() } });
    const row = await this.db.apiKey.findFirst({ where: { id, ...scope }, select: keyColumns });
    return row && toRecord(row);
  }

  /** The keys a caller manages, revoked ones included (they stay listed as an audit trail). */
  pages(managed: ManagedKeys): PageSource<ApiKeyRecord> {
    const scope = managedScope(managed);
    return {
      exists: async (id) => (await this.db.apiKey.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (
          await this.db.apiKey.findMany({
            where: { ...scope, ...idsBefore(beforeId) },
            orderBy: { id: 'desc' },
            take,
            select: keyColumns,
          })
        ).map(toRecord),
    };
  }
}
