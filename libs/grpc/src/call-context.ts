import { ApiError } from '@ticketing/errors';
import type { InternalClaims, Tenant } from '@ticketing/auth';

/** What a handler knows about a call: only what the verified internal token says. */
export class CallContext {
  constructor(readonly claims: InternalClaims) {}

  get requestId(): string {
    return this.claims.request_id;
  }

  /** The account and mode to act for; calls that need one and lack it are refused. */
  get tenant(): Tenant {
    const tenant = this.claims.tenant;
    if (!tenant) throw new ApiError('invalid_api_key', 'This operation needs an authenticated account.');
    return { accountId: tenant.account_id, mode: tenant.mode };
  }

  /** The API key the request was made with. */
  get key(): NonNullable<InternalClaims['key']> {
    const key = this.claims.key;
    if (!key) throw new ApiError('invalid_api_key', 'This operation needs an API key.');
    return key;
  }
}
