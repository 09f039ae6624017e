import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC, type CatalogEventPayloads } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { CatalogDb, PrismaClient } from '../../db';
import {
  assertEndsAfterStart,
  validCategory,
  validCurrency,
  validDescription,
  validEndsAt,
  validEventName,
  validStartsAt,
  validTags,
  validVenue,
  changedWaitingRoom,
  validWaitingRoomChange,
  type CatalogEvent,
  type EventDetails,
  type VenueInput,
  type WaitingRoomInput,
} from '../../domain/event';
import { toEventFacts } from '../../domain/event-facts';
import { assertTransition, eventStatus, isFinal, type EventStatus } from '../../domain/event-status';
import { DiscountRepository } from '../../repositories/discount.repository';
import { EventRepository } from '../../repositories/event.repository';
import { TierRepository } from '../../repositories/tier.repository';
import { assertOrganizationExists } from '../event-organization';

/** Only the fields present change; an empty text clears it, a venue without a name removes the venue. */
export interface UpdateEventCommand {
  id: string;
  name?: string;
  starts_at?: string;
  description?: string;
  organization_id?: string;
  venue?: VenueInput;
  ends_at?: string;
  category?: string;
  tags?: { values: string[] };
  currency?: string;
  status?: string;
  waiting_room?: WaitingRoomInput;
}

function validChanges(command: UpdateEventCommand): Partial<EventDetails> {
  const changes: Partial<EventDetails> = {};
  if (command.name !== undefined) changes.name = validEventName(command.name);
  if (command.starts_at !== undefined) changes.starts_at = validStartsAt(command.starts_at);
  if (command.description !== undefined) changes.description = validDescription(command.description);
  if (command.organization_id !== undefined) changes.organization_id = command.organization_id === '' ? null : command.organization_id;
  if (command.venue !== undefined) changes.venue = validVenue(command.venue);
  if (command.ends_at !== undefined) changes.ends_at = validEndsAt(command.ends_at);
  if (command.category !== undefined) changes.category = validCategory(command.category);
  if (command.tags !== undefined) changes.tags = validTags(command.tags.values);
  if (command.currency !== undefined) changes.currency = validCurrency(command.currency);
  if (command.waiting_room !== undefined) changes.waiting_room = validWaitingRoomChange(command.waiting_room);
  return changes;
}

/** The message a change publishes: a status change is announced as itself, with the full facts. */
function messageType(from: EventStatus, to: EventStatus): keyof CatalogEventPayloads & `event.${string}` {
  return from === to ? 'event.updated' : `event.${to as Exclude<EventStatus, 'draft'>}`;
}

/**
 * A tier without a sales end of its own sells until its event starts: moving the start to or
 * before the moment its sales open would leave it nothing to sell (as creating such a tier is
 * refused).
 */
async function assertTiersStillSell(tiers: TierRepository, tenant: Tenant, eventId: string, startsAt: Date): Promise<void> {
  const stranded = await tiers.firstOpeningAtOrAfter(tenant, eventId, startsAt);
  if (!stranded) return;
  throw new ApiError(
    'parameter_invalid',
    `starts_at must be after ${stranded.sales_start_at!.toISOString()}, when tier ${stranded.id} starts selling: it sells until the event starts. Move that tier's sales_start_at, or give it a sales_end_at, first.`,
    { param: 'starts_at' },
  );
}

/**
 * Changes an event's details and moves it through its lifecycle. The event row is locked for
 * the transaction, so a status change, a currency change and a new tier never interleave.
 */
export class UpdateEventUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: UpdateEventCommand): Promise<CatalogEvent> {
    const changes = validChanges(command);
    const requestedStatus = command.status === undefined ? undefined : eventStatus(command.status);
    if (Object.keys(changes).length === 0 && requestedStatus === undefined) {
      throw new ApiError('parameter_missing', 'Give at least one field to change.');
    }
    return this.prisma.$transaction(async (tx) => {
      const events = new EventRepository(tx);
      const locked = await events.lock(tenant, command.id);
      if (!locked) throw ApiError.resourceMissing('event', command.id);
      const status = requestedStatus ?? locked.status;
      assertTransition(locked.status, status);
      if (changes.waiting_room) changes.waiting_room = changedWaitingRoom(changes.waiting_room, locked.admission_rate_per_minute);
      if (isFinal(locked.status)) {
        if (Object.keys(changes).length === 0) return (await events.findById(tenant, command.id))!;
        throw new ApiError('event_finalized', `The event is ${locked.status}; it can no longer change.`);
      }
      if (changes.currency !== undefined && changes.currency !== locked.currency) await assertCurrencyFree(tx, tenant, command.id, locked.currency);
      if (changes.organization_id !== undefined) await assertOrganizationExists(tx, tenant, changes.organization_id);
      assertEndsAfterStart({ starts_at: changes.starts_at ?? locked.starts_at, ends_at: changes.ends_at === undefined ? locked.ends_at : changes.ends_at });
      if (changes.starts_at !== undefined) await assertTiersStillSell(new TierRepository(tx), tenant, command.id, changes.starts_at);
      const event = await events.update(tenant, command.id, { ...changes, status });
      await enqueueEvent(tx, { topic: CATALOG_EVENT_TOPIC, type: messageType(locked.status, status), aggregateId: event.id, tenant, data: toEventFacts(event) });
      return event;
    });
  }
}

/**
 * An event's currency can change only while nothing is priced in it: no tier, and no discount of
 * a fixed amount naming the event (an amount applies only in its currency, decision 0011). Both
 * are read after the event's lock: a tier's creation takes the same lock, and a discount's
 * creation or change shares it (DiscountTargetRepository), so neither can slip in meanwhile.
 */
async function assertCurrencyFree(tx: CatalogDb, tenant: Tenant, eventId: string, currency: string): Promise<void> {
  if (await new EventRepository(tx).hasTiers(eventId)) {
    throw new ApiError('event_currency_locked', `The event has tiers priced in ${currency}; its currency can no longer change.`, { param: 'currency' });
  }
  const discount = await new DiscountRepository(tx).findAmountOffNaming(tenant, eventId);
  if (discount) {
    throw new ApiError(
      'event_currency_locked',
      `Discount '${discount.id}' takes a fixed amount in ${discount.currency} off this event; its currency can no longer change. Remove the event from that discount's applies_to first.`,
      { param: 'currency' },
    );
  }
}
