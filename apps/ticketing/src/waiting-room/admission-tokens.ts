import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { keyDerivedFromInternalSecret } from '@ticketing/auth';

const ALGORITHM = 'HS256';
const AUDIENCE = 'ticketing-issuance';

/** What an admission token proves: this waiting-room entry of this event was admitted. */
export interface Admission {
  entryId: string;
  eventId: string;
}

/** An admission a token proved, with when it lapses. */
export interface VerifiedAdmission extends Admission {
  expiresAt: Date;
}

/**
 * Admission tokens (decision 0034): JWTs signed and checked only by ticketing, with a key derived
 * from the internal token secret (HKDF), so no second secret needs configuring. A token carries
 * no time of signing: HS256 over the same claims gives the same string, so an entry's token is
 * the same on every read.
 */
export class AdmissionTokens {
  private readonly key: KeyObject;

  constructor(internalSecret: string) {
    this.key = keyDerivedFromInternalSecret(internalSecret, 'ticketing admission tokens');
  }

  sign(admission: Admission, expiresAt: Date): string {
    return jwt.sign({ sub: admission.entryId, evt: admission.eventId, exp: Math.floor(expiresAt.getTime() / 1000) }, this.key, { algorithm: ALGORITHM, audience: AUDIENCE, noTimestamp: true });
  }

  /** The admission, or null when the token is forged, expired or not an admission token. */
  verify(token: string): VerifiedAdmission | null {
    try {
      const claims = jwt.verify(token, this.key, { algorithms: [ALGORITHM], audience: AUDIENCE });
      if (typeof claims === 'string' || typeof claims.sub !== 'string' || typeof claims.evt !== 'string' || typeof claims.exp !== 'number') return null;
      return { entryId: claims.sub, eventId: claims.evt, expiresAt: new Date(claims.exp * 1000) };
    } catch {
      return null;
    }
  }
}
