import { Webhook } from 'standardwebhooks';
import { EndpointSecrets, newSigningSecret } from './endpoint-secrets';

const secrets = new EndpointSecrets(Buffer.alloc(32, 7));

describe('EndpointSecrets', () => {
  it('opens what it sealed, for the same endpoint', () => {
    const secret = newSigningSecret();
    const sealed = secrets.seal(secret, 'we_1');
    expect(sealed).not.toContain(secret.slice(6));
    expect(secrets.open(sealed, 'we_1')).toBe(secret);
  });

  it('refuses a sealed secret moved to another endpoint', () => {
    expect(() => secrets.open(secrets.seal(newSigningSecret(), 'we_1'), 'we_2')).toThrow();
  });

  it('refuses a value sealed under another key', () => {
    const other = new EndpointSecrets(Buffer.alloc(32, 8));
    expect(() => secrets.open(other.seal(newSigningSecret(), 'we_1'), 'we_1')).toThrow();
  });

  it('refuses a tampered value', () => {
    const sealed = secrets.seal(newSigningSecret(), 'we_1');
    const [format, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => secrets.open([format, iv, flipped.toString('base64url'), tag].join('.'), 'we_1')).toThrow();
  });
});

describe('newSigningSecret', () => {
  it('is a whsec_ secret the Standard Webhooks library signs with, different each time', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSigningSecret()).not.toBe(secret);
    expect(new Webhook(secret).sign('msg_1', new Date(), '{}')).toMatch(/^v1,/);
  });
});
