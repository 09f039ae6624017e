import { claimsForTenant } from '@ticketing/auth';
import { createServer, type Server } from 'node:http';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../catalog/catalog-inventory';
import type { PrismaClient } from '../db';
import { CustomerRepository } from '../repositories/customer.repository';
import { TicketRepository } from '../repositories/ticket.repository';
import { DELIVERY_PAGE_PREFIX, type DeliveryLinks } from './delivery-links';
import { linkRefusedPage, ticketPage } from './ticket-page';

const SECURITY_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
};

/**
 * Ticketing's page server (decision 0035): `GET /d/<token>` shows the ticket a delivery link
 * names; the gateway forwards that path here, so it stays the only public entry. An expired,
 * forged or unknown link, or one whose ticket was transferred since, gets a page that says so,
 * never a ticket. `HEAD` answers as `GET`
 * without the page (Node sends no body to a HEAD), as link checkers and previewers expect; any
 * other method gets 405 with `Allow: GET, HEAD`, not a "not valid" page for a valid link.
 */
export function startTicketPageServer(port: number, deps: { prisma: PrismaClient; catalog: CatalogInventory; links: DeliveryLinks; logger: Logger }): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, html: string) => {
      res.writeHead(status, SECURITY_HEADERS);
      res.end(html);
    };
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'GET' && req.method !== 'HEAD' && path.startsWith(DELIVERY_PAGE_PREFIX)) {
      res.setHeader('allow', 'GET, HEAD');
      return send(405, linkRefusedPage('method'));
    }
    const token = linkToken(path);
    if (token === null) return send(404, linkRefusedPage('invalid'));
    renderLink(token, deps)
      .then(({ status, html }) => send(status, html))
      .catch((error: unknown) => {
        deps.logger.error({ err: error }, 'ticket page failed');
        send(503, linkRefusedPage('unavailable'));
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

/** The token a page path names; null for another path, or one whose percent-encoding is broken. */
function linkToken(path: string): string | null {
  if (!path.startsWith(DELIVERY_PAGE_PREFIX)) return null;
  try {
    return decodeURIComponent(path.slice(DELIVERY_PAGE_PREFIX.length));
  } catch {
    return null;
  }
}

async function renderLink(token: string, { prisma, catalog, links }: { prisma: PrismaClient; catalog: CatalogInventory; links: DeliveryLinks }): Promise<{ status: number; html: string }> {
  const link = links.check(token);
  if (!link.valid) return { status: link.reason === 'expired' ? 410 : 404, html: linkRefusedPage(link.reason) };
  const { ticketId, tenant, holderId } = link.claims;
  const ticket = await new TicketRepository(prisma).findById(tenant, ticketId);
  if (!ticket) return { status: 404, html: linkRefusedPage('missing') };
  // Given to someone else since: the old holder's link must not show the new holder or their code.
  if (ticket.customer_id !== holderId) return { status: 410, html: linkRefusedPage('transferred') };
  const [holder, event] = await Promise.all([
    new CustomerRepository(prisma).findById(tenant, ticket.customer_id),
    catalog.eventFacts(claimsForTenant(tenant), ticket.event_id),
  ]);
  const facts = { eventName: event.name, startsAt: event.startsAt, timeZone: event.timeZone, holderName: holder?.name ?? holder?.email ?? '', testMode: tenant.mode === 'test' };
  return { status: 200, html: await ticketPage(ticket, facts) };
}
