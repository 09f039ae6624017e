import { createServer, type Server } from 'node:http';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../catalog/catalog-inventory';
import type { PrismaClient } from '../db';
import { claimsForTenant } from '../tenant-claims';
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
 * forged or unknown link gets a page that says so, never a ticket.
 */
export function startTicketPageServer(port: number, deps: { prisma: PrismaClient; catalog: CatalogInventory; links: DeliveryLinks; logger: Logger }): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, html: string) => {
      res.writeHead(status, SECURITY_HEADERS);
      res.end(html);
    };
    const path = (req.url ?? '').split('?')[0]!;
    if (req.method !== 'GET' || !path.startsWith(DELIVERY_PAGE_PREFIX)) return send(404, linkRefusedPage('invalid'));
    renderLink(decodeURIComponent(path.slice(DELIVERY_PAGE_PREFIX.length)), deps)
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

async function renderLink(token: string, { prisma, catalog, links }: { prisma: PrismaClient; catalog: CatalogInventory; links: DeliveryLinks }): Promise<{ status: number; html: string }> {
  const link = links.check(token);
  if (!link.valid) return { status: link.reason === 'expired' ? 410 : 404, html: linkRefusedPage(link.reason) };
  const { ticketId, tenant } = link.claims;
  const ticket = await new TicketRepository(prisma).findById(tenant, ticketId);
  if (!ticket) return { status: 404, html: linkRefusedPage('missing') };
  const [holder, event] = await Promise.all([
    new CustomerRepository(prisma).findById(tenant, ticket.customer_id),
    catalog.eventFacts(claimsForTenant(tenant), ticket.event_id),
  ]);
  return { status: 200, html: await ticketPage(ticket, { eventName: event.name, startsAt: event.startsAt, holderName: holder?.name ?? holder?.email ?? '' }) };
}
