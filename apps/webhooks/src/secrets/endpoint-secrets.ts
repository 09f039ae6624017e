import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT = 'v1';
const CIPHER = 'aes-256-gcm';

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes, base64. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Seals endpoint signing secrets at rest with AES-256-GCM under the service's key (decision
 * 0052). Deliveries must be signed with the secret itself, so it cannot be hashed; sealed, a copy
 * of the table alone signs nothing. Each secret is bound to its endpoint's id, so a sealed value
 * moved to another row does not open.
 */
export class EndpointSecrets {
  constructor(private readonly key: Buffer) {}

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(CIPHER, this.key, iv).setAAD(Buffer.from(endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [FORMAT, ...[iv, sealed, cipher.getAuthTag()].map((part) => part.toString('base64url'))].join('.');
  }

  /** Throws when the value was not sealed for this endpoint under this key. */
  open(sealed: string, endpointId: string): string {
    const [format, iv, ciphertext, tag] = sealed.split('.');
    if (format !== FORMAT || !iv || !ciphertext || !tag) throw new Error(`endpoint ${endpointId}: its sealed secret is not in the ${FORMAT} format`);
    const decipher = createDecipheriv(CIPHER, this.key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
