import QRCode from 'qrcode';
import type { TicketingTicket } from '../domain/ticket';

/** What the page shows besides the ticket. */
export interface TicketPageFacts {
  eventName: string;
  startsAt: string;
  /** The venue's IANA time zone, which the start is shown in; UTC without one. */
  timeZone: string | null;
  holderName: string;
  /** A test-mode ticket: the page says so, so nobody takes it for a real one. */
  testMode: boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * A client's text, escaped and isolated from the text around it (`<bdi>`): a name ending in a
 * right-to-left override must not turn the seat printed after it around (a black-box probe
 * made seat 12 read as 21).
 */
const clientText = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;

/** When the event starts, at the venue: "Monday, 2 August 2027 at 18:30 CEST". */
function startsAtText(startsAt: string, timeZone: string | null): string {
  const format = new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: timeZone ?? 'UTC',
    timeZoneName: 'short',
  });
  return format.format(new Date(startsAt));
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{overflow-wrap:anywhere;font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}h1{font-size:1.4rem}.qr svg{width:100%;max-width:20rem}.muted{color:#555}.code{word-break:break-all;font-size:.6rem;color:#777}.test{background:#fff3c4;border:1px solid #e0b400;padding:.4rem .6rem;font-weight:600}</style>
</head><body>${body}</body></html>`;
}

/**
 * The holder's page: the event, the holder, and the QR code of the ticket's current code (the
 * `qrcode` package, as SVG). A ticket that no longer admits (refunded, revoked, canceled) shows
 * its state and no code. A test-mode ticket's page opens with a notice that it is not real.
 */
export async function ticketPage(ticket: TicketingTicket, facts: TicketPageFacts): Promise<string> {
  const notice = facts.testMode ? '<p class="test" data-test-mode>Test mode: this is not a real ticket.</p>' : '';
  const seat = ticket.seat_id ? `, seat <strong data-seat>${clientText(ticket.seat_id)}</strong>` : '';
  const heading = `${notice}<h1>${clientText(facts.eventName)}</h1><p class="muted" data-starts-at>${escapeHtml(startsAtText(facts.startsAt, facts.timeZone))}</p><p>Ticket for <strong data-holder>${clientText(facts.holderName)}</strong>${seat}</p>`;
  if (ticket.status !== 'valid' && ticket.status !== 'checked_in') {
    return page(facts.eventName, `${heading}<p data-status="${ticket.status}">This ticket was ${escapeHtml(ticket.status)} and no longer admits anyone.</p>`);
  }
  const qr = await QRCode.toString(ticket.code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return page(facts.eventName, `${heading}<div class="qr" data-qr>${qr}</div><p class="muted">Show this code at the door.</p><p class="code" data-code>${escapeHtml(ticket.code)}</p>`);
}

/** What a link that shows no ticket says, and why. */
export function linkRefusedPage(reason: 'expired' | 'invalid' | 'missing' | 'transferred' | 'unavailable' | 'method'): string {
  const text = {
    method: ['This link opens in a browser', 'Open it with a GET request, as a browser does.'],
    unavailable: ['This page is not available right now', 'Try again in a minute.'],
    expired: ['This link has expired', 'Ask the seller for a new link to your ticket.'],
    invalid: ['This link is not valid', 'Check that you opened the whole link, or ask the seller for a new one.'],
    missing: ['This ticket no longer exists', 'Ask the seller about your order.'],
    transferred: ['This ticket was transferred', 'It now belongs to someone else, so this link no longer shows it. If the ticket is yours, ask the seller for a new link.'],
  }[reason];
  return page(text[0]!, `<h1 data-refused="${reason}">${text[0]}</h1><p>${text[1]}</p>`);
}
