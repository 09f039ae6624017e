import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import type { OutboxRow } from '@ticketing/kafka';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { TicketingDb } from '../db';
import type { TicketingIssuance } from '../domain/issuance';
import { ticketPrices, type TicketingTicket, type TicketStatus } from '../domain/ticket';
import { Prisma } from '../generated/prisma/client';
import type { Retirement } from '../domain/ticket-change';
import { enqueue } from './outbox-sql';

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
  seat_id: true,
  reservation_id: true,
  pending_change_id: true,
  created_at: true,
  updated_at: true,
} as const;

export type TicketRow = Prisma.TicketGetPayload<{ select: typeof ticketColumns }>;

/** The columns a statement returns for its tickets, in ticketColumns' order. */
export const RETURNED_TICKET = Prisma.sql`id, mode, event_id, tier_id, customer_id, issuance_id, status, price, currency, code_version, code, seat_id, reservation_id, pending_change_id, created_at, updated_at`;


/** An issuance that sells no seats, ready to issue: its tickets' ids and codes, in order, and its `ticket.issued` message. */
export interface UnseatedIssue {
  issuance: TicketingIssuance;
  units: ReadonlyArray<{ id: string; code: string }>;
  message: OutboxRow<unknown>;
}

/** The change being made: its id (`tch_…`) and the message that announces it. */
export interface ChangeRecord {
  id: string;
  message: OutboxRow<unknown>;
}

/** A ticket's units were given ids in order, so ids sort an issuance's tickets by position. */
const byId = (a: TicketingTicket, b: TicketingTicket) => (a.id < b.id ? -1 : 1);

export const toTicket = ({ price, status, ...rest }: TicketRow): TicketingTicket => ({ ...rest, status: status as TicketStatus, price: Number(price) });

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
   * Issues pending issuances of the tenant that sell no seats, in one statement: marks each
   * issued, creates one valid ticket per unit (its `units`, in order, sharing its amount) and
   * enqueues its `message`. Answers each item's tickets in the batch's order, or null, with
   * nothing written for it, when its issuance was no longer pending (another driver issued or
   * refused it) or an earlier item of the batch is the same issuance.
   */
  async issueUnseated(tenant: Tenant, batch: readonly UnseatedIssue[]): Promise<Array<TicketingTicket[] | null>> {
    const units = batch.flatMap(({ issuance, units: itemUnits }, ordinal) => {
      const prices = ticketPrices(issuance.amount, issuance.quantity);
      return itemUnits.map((unit, index) => ({ ...unit, ordinal, position: index + 1, price: String(prices[index]) }));
    });
    const topic = batch[0]?.message.topic ?? '';
    const rows = await this.db.$queryRaw<Array<TicketRow & { ordinal: number }>>`
      WITH batch AS (
        SELECT * FROM unnest(${batch.map((_, ordinal) => ordinal)}::int[], ${batch.map((item) => item.issuance.id)}::text[],
                             ${batch.map((item) => item.message.id)}::text[], ${batch.map((item) => item.message.messageKey)}::text[],
                             ${batch.map((item) => item.message.payload)}::text[])
          AS b (ordinal, issuance_id, message_id, message_key, payload)),
      issued AS (
        UPDATE issuances i SET status = 'issued', updated_at = now() FROM batch b
         WHERE i.id = b.issuance_id AND i.account_id = ${tenant.accountId} AND i.mode = ${tenant.mode} AND i.status = 'pending'
        RETURNING b.ordinal, i.id, i.account_id, i.mode, i.event_id, i.tier_id, i.customer_id, i.currency, b.message_id, b.message_key, b.payload),
      enqueued AS (
        INSERT INTO outbox_messages (id, topic, message_key, payload) SELECT message_id, ${topic}, message_key, payload::jsonb FROM issued),
      inserted AS (
        INSERT INTO tickets (id, account_id, mode, event_id, tier_id, issuance_id, reservation_id, position, customer_id, status, price, currency, code)
        SELECT unit.id, i.account_id, i.mode, i.event_id, i.tier_id, i.id, i.id, unit.position, i.customer_id, 'valid', unit.price, i.currency, unit.code
          FROM issued i
          JOIN unnest(${units.map((unit) => unit.ordinal)}::int[], ${units.map((unit) => unit.id)}::text[], ${units.map((unit) => unit.position)}::int[],
                      ${units.map((unit) => unit.price)}::bigint[], ${units.map((unit) => unit.code)}::text[])
            AS unit (ordinal, id, position, price, code) ON unit.ordinal = i.ordinal
        RETURNING ${RETURNED_TICKET})
      SELECT inserted.*, issued.ordinal FROM inserted JOIN issued ON issued.id = inserted.issuance_id`;
    const byOrdinal = new Map<number, TicketingTicket[]>();
    for (const { ordinal, ...row } of rows) {
      const tickets = byOrdinal.get(ordinal) ?? [];
      tickets.push(toTicket(row));
      byOrdinal.set(ordinal, tickets);
    }
    return batch.map((_, ordinal) => byOrdinal.get(ordinal)?.sort(byId) ?? null);
  }

  /**
   * Issues a pending issuance whose units each sell a seat of its hold, in one statement: marks
   * it issued, creates one valid ticket per unit (in order, sharing its amount), points the
   * seats' claims at their tickets, marks the hold sold, and enqueues `message` and `seatsSold`.
   * Null, with nothing written, when the issuance was no longer pending: another driver issued
   * or refused it.
   */
  async issueSeated(
    tenant: Tenant,
    issuance: TicketingIssuance,
    units: ReadonlyArray<{ id: string; code: string; seat_id: string }>,
    message: OutboxRow<unknown>,
    seatsSold: OutboxRow<unknown>,
  ): Promise<TicketingTicket[] | null> {
    const prices = ticketPrices(issuance.amount, issuance.quantity).map(String);
    const ticketIds = units.map((unit) => unit.id);
    const codes = units.map((unit) => unit.code);
    const seats = units.map((unit) => unit.seat_id);
    const positions = units.map((_, index) => index + 1);
    const rows = await this.db.$queryRaw<TicketRow[]>`
      WITH issued AS (
        UPDATE issuances SET status = 'issued', updated_at = now()
         WHERE id = ${issuance.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'pending'
        RETURNING id, account_id, mode, event_id, tier_id, customer_id, currency),
      enqueued AS (${enqueue(message)} FROM issued),
      inserted AS (
        INSERT INTO tickets (id, account_id, mode, event_id, tier_id, issuance_id, reservation_id, position, customer_id, status, price, currency, code, seat_id)
        SELECT unit.id, i.account_id, i.mode, i.event_id, i.tier_id, i.id, i.id, unit.position, i.customer_id, 'valid', unit.price, i.currency, unit.code, unit.seat_id
          FROM issued i, unnest(${ticketIds}::text[], ${positions}::int[], ${prices}::bigint[], ${codes}::text[], ${seats}::text[])
            AS unit (id, position, price, code, seat_id)
        RETURNING ${RETURNED_TICKET}),
      seats_sold AS (
        UPDATE seat_claims c SET ticket_id = t.id FROM inserted t WHERE c.event_id = t.event_id AND c.seat_id = t.seat_id),
      hold_sold AS (
        UPDATE seat_holds SET status = 'sold' WHERE id = ${issuance.seat_hold_id} AND EXISTS (SELECT 1 FROM issued)),
      seats_announced AS (${enqueue(seatsSold)} FROM issued)
      SELECT * FROM inserted`;
    if (rows.length === 0) return null;
    return rows.map(toTicket).sort(byId);
  }

  /**
   * Gives `ticket` to another holder under the next code version and its new `code`, records the
   * change and enqueues its message, in one statement. Null, with nothing written, when the
   * ticket is no longer valid at the version read: another change won.
   */
  async transfer(tenant: Tenant, ticket: TicketingTicket, toCustomerId: string, code: string, change: ChangeRecord): Promise<TicketingTicket | null> {
    const rows = await this.db.$queryRaw<TicketRow[]>`
      WITH changed AS (
        UPDATE tickets SET customer_id = ${toCustomerId}, code_version = code_version + 1, code = ${code}, updated_at = now()
         WHERE id = ${ticket.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'valid' AND code_version = ${ticket.code_version}
           AND pending_change_id IS NULL
        RETURNING ${RETURNED_TICKET}),
      recorded AS (
        INSERT INTO ticket_changes (id, account_id, mode, ticket_id, kind, code_version, from_customer_id, to_customer_id)
        SELECT ${change.id}, ${tenant.accountId}, ${tenant.mode}, id, 'transfer', code_version, ${ticket.customer_id}, customer_id FROM changed),
      enqueued AS (${enqueue(change.message)} FROM changed)
      SELECT * FROM changed`;
    return rows[0] ? toTicket(rows[0]) : null;
  }

  /**
   * Retires `ticket` (refunded or revoked), records the change with its unit still to be given
   * back to its tier, and enqueues its message, in one statement. A seated ticket keeps its seat
   * until the unit is back (TicketChangeRepository.markReturned). Null, with nothing written,
   * when the ticket is no longer valid at the version read: another change won.
   */
  async retire(
    tenant: Tenant,
    ticket: TicketingTicket,
    retirement: { kind: Retirement; status: TicketStatus; reason: string | null },
    change: ChangeRecord,
  ): Promise<TicketingTicket | null> {
    const rows = await this.db.$queryRaw<TicketRow[]>`
      WITH changed AS (
        UPDATE tickets SET status = ${retirement.status}, updated_at = now()
         WHERE id = ${ticket.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'valid' AND code_version = ${ticket.code_version}
           AND pending_change_id IS NULL
        RETURNING ${RETURNED_TICKET}),
      recorded AS (
        INSERT INTO ticket_changes (id, account_id, mode, ticket_id, kind, code_version, from_customer_id, to_customer_id, reason, return_reservation_id, return_attempted_at)
        SELECT ${change.id}, ${tenant.accountId}, ${tenant.mode}, id, ${retirement.kind}, code_version, customer_id, customer_id, ${retirement.reason}, reservation_id, now() FROM changed),
      enqueued AS (${enqueue(change.message)} FROM changed)
      SELECT * FROM changed`;
    return rows[0] ? toTicket(rows[0]) : null;
  }

  /** Up to `limit` valid tickets of the event (none with an upgrade under way), locked until the transaction ends. */
  async lockValidOfEvent(tenant: Tenant, eventId: string, limit: number): Promise<TicketingTicket[]> {
    const rows = await this.db.$queryRaw<TicketRow[]>`
      SELECT ${RETURNED_TICKET} FROM tickets
       WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND event_id = ${eventId} AND status = 'valid' AND pending_change_id IS NULL
       ORDER BY id LIMIT ${limit} FOR UPDATE`;
    return rows.map(toTicket);
  }

  /**
   * Cancels these tickets (read valid and locked by the caller's transaction), keeping each
   * change in its history and enqueueing its message, in one statement.
   */
  async cancel(tenant: Tenant, changes: ReadonlyArray<{ ticket: TicketingTicket; change: ChangeRecord }>, reason: string): Promise<void> {
    const ticketIds = changes.map(({ ticket }) => ticket.id);
    const changeIds = changes.map(({ change }) => change.id);
    const messageIds = changes.map(({ change }) => change.message.id);
    const payloads = changes.map(({ change }) => change.message.payload);
    const topic = changes[0]?.change.message.topic ?? '';
    await this.db.$executeRaw`
      WITH batch AS (
        SELECT * FROM unnest(${ticketIds}::text[], ${changeIds}::text[], ${messageIds}::text[], ${payloads}::text[]) AS b (ticket_id, change_id, message_id, payload)),
      canceled AS (
        UPDATE tickets t SET status = 'canceled', updated_at = now() FROM batch
         WHERE t.id = batch.ticket_id AND t.account_id = ${tenant.accountId} AND t.mode = ${tenant.mode} AND t.status = 'valid'
        RETURNING t.id, t.event_id, t.customer_id, t.code_version, batch.change_id, batch.message_id, batch.payload),
      recorded AS (
        INSERT INTO ticket_changes (id, account_id, mode, ticket_id, kind, code_version, from_customer_id, to_customer_id, reason)
        SELECT change_id, ${tenant.accountId}, ${tenant.mode}, id, 'cancel', code_version, customer_id, customer_id, ${reason} FROM canceled)
      INSERT INTO outbox_messages (id, topic, message_key, payload)
      SELECT message_id, ${topic}, event_id, payload::jsonb FROM canceled`;
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

  /** The tenant's ticket, or 404 `resource_missing` when it has none by that id. */
  async getById(tenant: Tenant, id: string): Promise<TicketingTicket> {
    const ticket = await this.findById(tenant, id);
    if (!ticket) throw ApiError.resourceMissing('ticket', id);
    return ticket;
  }

  pages(tenant: Tenant, filters: TicketFilters): PageSource<TicketingTicket> {
    const scope = { ...filters, ...tenantScope(tenant) };
    return {
      exists: async (id) => (await this.db.ticket.count({ where: { id, ...tenantScope(tenant) } })) > 0,
      fetch: async (take, beforeId) =>
        (await this.db.ticket.findMany({ where: { ...scope, ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: ticketColumns })).map(toTicket),
    };
  }
}
