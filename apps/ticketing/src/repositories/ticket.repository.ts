import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { TicketingDb } from '../db';
import type { TicketingIssuance } from '../domain/issuance';
import { ticketPrices, type TicketingTicket, type TicketStatus } from '../domain/ticket';
import type { Prisma } from '../generated/prisma/client';

const ticketColumns = {
  id: true,
  mode: true,
  event_id: true,
  tier_id: true,
  customer_id: true,
  issuance_id: true,
  status: true,
  price: true,
  currency: true,
  created_at: true,
  updated_at: true,
} as const;

type TicketRow = Prisma.TicketGetPayload<{ select: typeof ticketColumns }>;

const toTicket = ({ price, status, ...rest }: TicketRow): TicketingTicket => ({ ...rest, status: status as TicketStatus, price: Number(price) });

export interface TicketFilters {
  event_id?: string;
  customer_id?: string;
  tier_id?: string;
  status?: TicketStatus;
}

/** Tickets of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class TicketRepository {
  constructor(private readonly db: TicketingDb) {}

  /** The issuance's tickets, one per unit, sharing its amount; valid from the start. */
  async createFor(tenant: Tenant, issuance: TicketingIssuance): Promise<TicketingTicket[]> {
    const rows = await this.db.ticket.createManyAndReturn({
      data: ticketPrices(issuance.amount, issuance.quantity).map((price, index) => ({
        id: newId('tkt'),
        ...tenantScope(tenant),
        event_id: issuance.event_id,
        tier_id: issuance.tier_id,
        issuance_id: issuance.id,
        position: index + 1,
        customer_id: issuance.customer_id,
        status: 'valid',
        price: BigInt(price),
        currency: issuance.currency,
      })),
      select: ticketColumns,
    });
    return rows.map(toTicket).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async ofIssuance(tenant: Tenant, issuanceId: string): Promise<TicketingTicket[]> {
    const rows = await this.db.ticket.findMany({ where: { issuance_id: issuanceId, ...tenantScope(tenant) }, orderBy: { position: 'asc' }, select: ticketColumns });
    return rows.map(toTicket);
  }

  async findById(tenant: Tenant, id: string): Promise<TicketingTicket | null> {
    const row = await this.db.ticket.findUnique({ where: { id, ...tenantScope(tenant) }, select: ticketColumns });
    return row && toTicket(row);
  }

  pages(tenant: Tenant, filters: TicketFilters): PageSource<TicketingTicket> {
    const scope = { ...filters, ...tenantScope(tenant) };
    return {
      exists: async (id) => (await this.db.ticket.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (await this.db.ticket.findMany({ where: { ...scope, ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: ticketColumns })).map(toTicket),
    };
  }
}
