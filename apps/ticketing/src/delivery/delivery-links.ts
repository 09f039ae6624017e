import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { isMode, keyDerivedFromInternalSecret, type Tenant } from '@ticketing/auth';

const ALGORITHM = 'HS256';
const AUDIENCE = 'ticket-page';

/** What a delivery link opens: one ticket of one tenant, for as long as its holder holds it. */
export interface DeliveryLinkClaims {
  ticketId: string;
  tenant: Tenant;
  /** The customer who held the ticket when the link was made: a transfer ends the link. */
  holderId: string;
}

export type LinkCheck = { valid: true; claims: DeliveryLinkClaims } | { valid: false; reason: 'expired' | 'invalid' };

/**
 * Delivery links (decision 0035): `<PUBLIC_BASE_URL>/d/<token>`, the token a JWT signed by
 * ticketing (HS256, key derived from the internal token secret with HKDF) naming the ticket, its
 * tenant and its holder, with an expiry. Only ticketing makes and reads them.
 */
export class DeliveryLinks {
  private readonly key: KeyObject;

  constructor(
    internalSecret: string,
    private readonly publicBaseUrl: string,
  ) {
    this.key = keyDerivedFromInternalSecret(internalSecret, 'ticketing delivery links');
  }

  create(claims: DeliveryLinkClaims, expiresAt: Date): string {
    const token = jwt.sign({ sub: claims.ticketId, acct: claims.tenant.accountId, mode: claims.tenant.mode, hld: claims.holderId, exp: Math.floor(expiresAt.getTime() / 1000) }, this.key, {
      algorithm: ALGORITHM,
      audience: AUDIENCE,
    });
    return `${this.publicBaseUrl.replace(/\/$/, '')}${DELIVERY_PAGE_PREFIX}${token}`;
  }

  check(token: string): LinkCheck {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE });
      if (typeof payload === 'string' || typeof payload.sub !== 'string' || typeof payload.acct !== 'string' || !isMode(payload.mode) || typeof payload.hld !== 'string') {
        return { valid: false, reason: 'invalid' };
      }
      return { valid: true, claims: { ticketId: payload.sub, tenant: { accountId: payload.acct, mode: payload.mode }, holderId: payload.hld } };
    } catch (error) {
      return { valid: false, reason: error instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
    }
  }
}

/** Where delivery pages live, on the gateway (which forwards them here) and on ticketing's page server. */
export const DELIVERY_PAGE_PREFIX = '/d/';
export const DEFAULT_DELIVERY_LINK_TTL_SECONDS = 7 * 24 * 3600;
export const MAX_DELIVERY_LINK_TTL_SECONDS = 90 * 24 * 3600;
