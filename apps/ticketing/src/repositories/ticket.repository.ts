import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { OutboxRow } from '@ticketing/kafka';
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
  code_version: true,
  code: true,
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

  /**
   * Issues a pending issuance in one statement: marks it issued, creates one valid ticket per
   * unit (`units`, in order, sharing its amount) and enqueues `message`. Null, with nothing
   * written, when the issuance was no longer pending: another driver issued or refused it.
   */
  async issue(tenant: Tenant, issuance: TicketingIssuance, units: ReadonlyArray<{ id: string; code: string }>, message: OutboxRow<unknown>): Promise<TicketingTicket[] | null> {
    const prices = ticketPrices(issuance.amount, issuance.quantity).map(String);
    const ticketIds = units.map((unit) => unit.id);
    const codes = units.map((unit) => unit.code);
    const positions = units.map((_, index) => index + 1);
    const rows = await this.db.$queryRaw<TicketRow[]>`
      WITH issued AS (
        UPDATE issuances SET status = 'issued', updated_at = now()
         WHERE id = ${issuance.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'pending'
        RETURNING id, account_id, mode, event_id, tier_id, customer_id, currency),
      enqueued AS (
        INSERT INTO outbox_messages (id, topic, message_key, payload)
        SELECT ${message.id}, ${message.topic}, ${message.messageKey}, ${message.payload}::jsonb FROM issued)
      INSERT INTO tickets (id, account_id, mode, event_id, tier_id, issuance_id, position, customer_id, status, price, currency, code)
      SELECT unit.id, i.account_id, i.mode, i.event_id, i.tier_id, i.id, unit.position, i.customer_id, 'valid', unit.price, i.currency, unit.code
        FROM issued i, unnest(${ticketIds}::text[], ${positions}::int[], ${prices}::bigint[], ${codes}::text[]) AS unit (id, position, price, code)
      RETURNING id, mode, event_id, tier_id, customer_id, issuance_id, status, price, currency, code_version, code, created_at, updated_at`;
    if (rows.length === 0) return null;
    return rows.map(toTicket).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  async ofIssuance(tenant: Tenant, issuanceId: string): Promise<TicketingTicket[]> {
    return (await this.ofIssuances(tenant, [issuanceId])).get(issuanceId)!;
  }

  /** The tickets of several issuances, by issuance, each in position order. */
  async ofIssuances(tenant: Tenant, issuanceIds: readonly string[]): Promise<Map<string, TicketingTicket[]>> {
    const rows = await this.db.ticket.findMany({
      where: { issuance_id: { in: [...issuanceIds] }, ...tenantScope(tenant) },
      orderBy: [{ issuance_id: 'asc' }, { position: 'asc' }],
      select: ticketColumns,
    });
    const byIssuance = new Map<string, TicketingTicket[]>(issuanceIds.map((id) => [id, []]));
    for (const row of rows) byIssuance.get(row.issuance_id)!.push(toTicket(row));
    return byIssuance;
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
