import type { TicketingTicket } from '../domain/ticket';
import { ticketPage, type TicketPageFacts } from './ticket-page';

const ticket = { status: 'valid', code: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln', seat_id: 'Stalls:A:12' } as TicketingTicket;
const facts: TicketPageFacts = { eventName: 'Harbour Lights', startsAt: '2027-01-15T19:30:00.000Z', timeZone: 'Europe/Amsterdam', holderName: 'Ann Lee', testMode: false };

describe('ticketPage', () => {
  it('isolates each client text, so a name ending in a right-to-left override cannot turn the seat after it around', async () => {
    const html = await ticketPage(ticket, { ...facts, holderName: 'Ann Lee\u202e', eventName: '\u202eNight' });
    expect(html).toContain('Ticket for <strong data-holder><bdi>Ann Lee\u202e</bdi></strong>, seat <strong data-seat><bdi>Stalls:A:12</bdi></strong>');
    expect(html).toContain('<h1><bdi>\u202eNight</bdi></h1>');
  });

  it('escapes what it isolates', async () => {
    expect(await ticketPage(ticket, { ...facts, holderName: '<img src=x onerror=alert(1)>' })).toContain('<bdi>&#60;img src=x onerror=alert(1)&#62;</bdi>');
  });

  it('shows the start at the venue, or in UTC for an event without a time zone', async () => {
    expect(await ticketPage(ticket, facts)).toContain('data-starts-at>Friday, 15 January 2027 at 20:30 CET</p>');
    expect(await ticketPage(ticket, { ...facts, timeZone: null })).toContain('data-starts-at>Friday, 15 January 2027 at 19:30 UTC</p>');
  });

  it('wraps long unbroken names rather than widen the page past a phone’s screen', async () => {
    expect(await ticketPage(ticket, facts)).toMatch(/<style>body\{overflow-wrap:anywhere;/);
  });
});
