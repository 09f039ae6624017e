import QRCode from 'qrcode';
import type { TicketingTicket } from '../domain/ticket';

/** What the page shows besides the ticket. */
export interface TicketPageFacts {
  eventName: string;
  startsAt: string;
  holderName: string;
  /** A test-mode ticket: the page says so, so nobody takes it for a real one. */
  testMode: boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}h1{font-size:1.4rem}.qr svg{width:100%;max-width:20rem}.muted{color:#555}.code{word-break:break-all;font-size:.6rem;color:#777}.test{background:#fff3c4;border:1px solid #e0b400;padding:.4rem .6rem;font-weight:600}</style>
</head><body>${body}</body></html>`;
}

/**
 * The holder's page: the event, the holder, and the QR code of the ticket's current code (the
 * `qrcode` package, as SVG). A ticket that no longer admits (refunded, revoked, canceled) shows
 * its state and no code. A test-mode ticket's page opens with a notice that it is not real.
 */
export async function ticketPage(ticket: TicketingTicket, facts: TicketPageFacts): Promise<string> {
  const notice = facts.testMode ? '<p class="test" data-test-mode>Test mode: this is not a real ticket.</p>' : '';
  const heading = `${notice}<h1>${escapeHtml(facts.eventName)}</h1><p class="muted">${escapeHtml(new Date(facts.startsAt).toUTCString())}</p><p>Ticket for <strong data-holder>${escapeHtml(facts.holderName)}</strong>${ticket.seat_id ? `, seat <strong>${escapeHtml(ticket.seat_id)}</strong>` : ''}</p>`;
  if (ticket.status !== 'valid' && ticket.status !== 'checked_in') {
    return page(facts.eventName, `${heading}<p data-status="${ticket.status}">This ticket was ${escapeHtml(ticket.status)} and no longer admits anyone.</p>`);
  }
  const qr = await QRCode.toString(ticket.code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return page(facts.eventName, `${heading}<div class="qr" data-qr>${qr}</div><p class="muted">Show this code at the door.</p><p class="code" data-code>${escapeHtml(ticket.code)}</p>`);
}

/** What a link that shows no ticket says, and why. */
export function linkRefusedPage(reason: 'expired' | 'invalid' | 'missing' | 'transferred' | 'unavailable'): string {
  const text = {
    unavailable: ['This page is not available right now', 'Try again in a minute.'],
    expired: ['This link has expired', 'Ask the seller for a new link to your ticket.'],
    invalid: ['This link is not valid', 'Check that you opened the whole link, or ask the seller for a new one.'],
    missing: ['This ticket no longer exists', 'Ask the seller about your order.'],
    transferred: ['This ticket was transferred', 'It now belongs to someone else, so this link no longer shows it. If the ticket is yours, ask the seller for a new link.'],
  }[reason];
  return page(text[0]!, `<h1 data-refused="${reason}">${text[0]}</h1><p>${text[1]}</p>`);
}
