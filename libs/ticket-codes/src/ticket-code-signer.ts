import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

/**
 * A ticket's scannable code (decision 0031): a compact JWT signed with ES256, so a door device
 * verifies it offline with the public key set, whose key it names by `kid`. It carries the
 * ticket, its event and its code version; a new version (the ticket changed hands or tier)
 * makes a new code, and the scanner refuses any older one.
 */
export interface TicketCodeClaims {
  ticketId: string;
  eventId: string;
  version: number;
}

/** A public key of the set, as RFC 7517 writes it. */
export interface PublicCodeKey extends JsonWebKey {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

const ALGORITHM = 'ES256';

/**
 * The key's id is the start of its RFC 7638 thumbprint (SHA-256 of its required members): it
 * never needs configuring, replicas holding one key agree on it, and 16 characters keep codes
 * short while two keys of one set colliding stays out of reach.
 */
function keyIdOf({ crv, x, y }: JsonWebKey): string {
  return createHash('sha256').update(JSON.stringify({ crv, kty: 'EC', x, y })).digest('base64url').slice(0, 16);
}

function publicCodeKey(key: KeyObject): PublicCodeKey {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw new Error('ticket code keys must be P-256 (ES256) keys');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: keyIdOf(jwk), alg: ALGORITHM, use: 'sig' };
}

/**
 * Signs ticket codes with one private key and publishes the public key set: its own key, then
 * the retired keys that codes still in circulation were signed with (rotation: sign with the new
 * key, keep publishing the old until its codes are gone).
 */
export class TicketCodeSigner {
  private readonly privateKey: KeyObject;
  private readonly keyId: string;
  readonly publicKeys: readonly PublicCodeKey[];

  /** `privateKeyPem`: a P-256 private key (PKCS #8 or SEC 1 PEM); `retiredKeys`: public JWKs. */
  constructor(privateKeyPem: string, retiredKeys: readonly JsonWebKey[] = []) {
    this.privateKey = createPrivateKey(privateKeyPem);
    const own = publicCodeKey(createPublicKey(this.privateKey));
    this.keyId = own.kid;
    const retired = retiredKeys.map((jwk) => publicCodeKey(createPublicKey({ key: jwk, format: 'jwk' })));
    this.publicKeys = [own, ...retired.filter((key) => key.kid !== own.kid)];
  }

  sign({ ticketId, eventId, version }: TicketCodeClaims): string {
    // No `typ` and no `iat`: a code is only ever a ticket code, and every byte enlarges its QR code.
    return jwt.sign({ sub: ticketId, evt: eventId, ver: version }, this.privateKey, {
      algorithm: ALGORITHM,
      header: { alg: ALGORITHM, kid: this.keyId, typ: undefined },
      noTimestamp: true,
    });
  }
}
