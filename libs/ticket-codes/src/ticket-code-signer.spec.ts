import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TicketCodeSigner, type PublicCodeKey } from './ticket-code-signer';

const newPem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const claims = { ticketId: 'tkt_01JD3WD7G9J1L3N5Q7S9U1W3Y5', eventId: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST', version: 2 };

/** What a door device does: find the key the code names in the published set, verify offline. */
function verifyAsDevice(code: string, keys: readonly PublicCodeKey[]) {
  const kid = jwt.decode(code, { complete: true })?.header.kid;
  const key = keys.find((candidate) => candidate.kid === kid);
  if (!key) throw new Error(`no published key ${kid}`);
  return jwt.verify(code, createPublicKey({ key, format: 'jwk' }), { algorithms: ['ES256'] });
}

describe('TicketCodeSigner', () => {
  it('signs a code that verifies with the published key it names, carrying ticket, event and version', () => {
    const signer = new TicketCodeSigner(newPem());
    const code = signer.sign(claims);
    expect(verifyAsDevice(code, signer.publicKeys)).toEqual({ sub: claims.ticketId, evt: claims.eventId, ver: 2 });
    expect(signer.publicKeys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })]);
  });

  it('keeps codes compact enough for a small QR code', () => {
    expect(new TicketCodeSigner(newPem()).sign(claims).length).toBeLessThan(280);
  });

  it('publishes retired keys after its own, so codes signed before a rotation still verify', () => {
    const before = new TicketCodeSigner(newPem());
    const oldCode = before.sign(claims);
    const after = new TicketCodeSigner(newPem(), before.publicKeys);
    expect(after.publicKeys.map((key) => key.kid)).toEqual([after.publicKeys[0]!.kid, before.publicKeys[0]!.kid]);
    expect(verifyAsDevice(oldCode, after.publicKeys)).toMatchObject({ sub: claims.ticketId });
  });

  it('derives the key id from the key (RFC 7638 thumbprint), so two replicas with one key agree', () => {
    const pem = newPem();
    expect(new TicketCodeSigner(pem).publicKeys[0]!.kid).toBe(new TicketCodeSigner(pem).publicKeys[0]!.kid);
  });

  it('makes codes that a code signed with another key cannot pass for', () => {
    const signer = new TicketCodeSigner(newPem());
    const forger = new TicketCodeSigner(newPem());
    const forged = jwt.sign({ sub: claims.ticketId, evt: claims.eventId, ver: 9 }, newPem(), { algorithm: 'ES256', keyid: signer.publicKeys[0]!.kid });
    expect(() => verifyAsDevice(forged, signer.publicKeys)).toThrow('invalid signature');
    expect(() => verifyAsDevice(forger.sign(claims), signer.publicKeys)).toThrow('no published key');
  });

  it('refuses a key that is not P-256', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => new TicketCodeSigner(rsa)).toThrow('P-256');
  });
});
