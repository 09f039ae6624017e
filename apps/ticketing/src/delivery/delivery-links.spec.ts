import jwt from 'jsonwebtoken';
import { keyDerivedFromInternalSecret } from '@ticketing/auth';
import { DeliveryLinks } from './delivery-links';

const links = new DeliveryLinks('ticketing-test-secret-0123456789', 'https://tickets.example.com/');
const claims = { ticketId: 'tkt_01JD3WD7G9J1L3N5Q7S9U1W3Y5', tenant: { accountId: 'acct_1', mode: 'live' as const }, holderId: 'cus_01JD3WD7G9J1L3N5Q7S9U1W3Y6' };
const tokenOf = (url: string) => url.split('/d/')[1]!;

describe('DeliveryLinks', () => {
  it('makes a link under the public address that opens the ticket of its tenant for its holder', () => {
    const url = links.create(claims, new Date(Date.now() + 60_000));
    expect(url).toMatch(/^https:\/\/tickets\.example\.com\/d\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(links.check(tokenOf(url))).toEqual({ valid: true, claims });
  });

  it('says an expired link is expired', () => {
    expect(links.check(tokenOf(links.create(claims, new Date(Date.now() - 1000))))).toEqual({ valid: false, reason: 'expired' });
  });

  it('refuses a link signed with another key, or anything that is not a link', () => {
    const other = new DeliveryLinks('another-secret-0123456789abcdef', 'https://tickets.example.com');
    expect(links.check(tokenOf(other.create(claims, new Date(Date.now() + 60_000))))).toEqual({ valid: false, reason: 'invalid' });
    expect(links.check('not-a-token')).toEqual({ valid: false, reason: 'invalid' });
  });

  it('refuses a correctly signed link that names no holder, as links made before holders were named did', () => {
    const key = keyDerivedFromInternalSecret('ticketing-test-secret-0123456789', 'ticketing delivery links');
    const holderless = jwt.sign({ sub: claims.ticketId, acct: 'acct_1', mode: 'live', exp: Math.floor(Date.now() / 1000) + 60 }, key, { algorithm: 'HS256', audience: 'ticket-page' });
    expect(links.check(holderless)).toEqual({ valid: false, reason: 'invalid' });
  });
});
