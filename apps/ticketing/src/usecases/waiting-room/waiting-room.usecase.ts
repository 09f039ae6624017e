import type { InternalClaims, Tenant } from '@ticketing/auth';
import { TICKETING_QUEUE_TOPIC } from '@ticketing/contracts';
import { keyHashOf, type IdempotentWrite } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import { newId } from '@ticketing/ids';
import { enqueueEvent } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { waitingRoomDisabled, type QueueEntry, type QueueState } from '../../domain/waiting-room';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import type { QueueAnswer, QueueStore } from '../../waiting-room/queue-store';
import { announceEnded } from '../seat-holds/seat-hold-messages';

/**
 * Joining, reading and leaving an event's waiting room (decision 0034). The queue is in Redis;
 * its changes are published on ticketing.queue.v1 after each call (queue.joined, queue.admitted,
 * queue.left). Only an event whose waiting room catalog says is enabled has one: ticketing's
 * copy of the setting answers when it knows the room enabled; otherwise catalog is asked, since
 * the copy lags it and a buyer just told to queue (decision 0034) must find the room open.
 */
export class WaitingRoomUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: Pick<CatalogInventory, 'eventFacts'>,
    private readonly queues: QueueStore,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Only a published event's room takes newcomers: a draft one's admissions could buy nothing, a
   * canceled one's never. Under an Idempotency-Key (`write`), a join the key already made answers
   * its entry: the queue is in Redis, outside the database that records keyed writes, so Redis
   * keeps which entry each key queued, and a retry whose first reply was lost takes no second place.
   */
  async join(claims: InternalClaims, tenant: Tenant, eventId: string, write?: IdempotentWrite): Promise<QueueEntry> {
    const { rate, status } = await this.room(claims, tenant, eventId, { published: true });
    if (status !== 'published') throw new ApiError('event_not_on_sale', `The event is ${status}; only a published event's waiting room takes newcomers.`);
    const answer = await this.queues.join(eventId, rate, newId('qen'), this.clock(), write ? keyHashOf(write) : null);
    if (!answer.joinedNow) write?.markReplayed();
    await this.announce(tenant, eventId, answer, answer.joinedNow ? { type: 'queue.joined', entryId: answer.entry!.id } : undefined);
    return answer.entry!;
  }

  async read(claims: InternalClaims, tenant: Tenant, eventId: string, entryId: string): Promise<{ state: QueueState; entry: QueueEntry | null }> {
    const { rate } = await this.room(claims, tenant, eventId);
    const answer = await this.queues.read(eventId, rate, entryId ? requiredIdParam(entryId, 'entry_id') : null, this.clock());
    if (entryId && !answer.entry) throw ApiError.resourceMissing('queue entry', entryId, 'entry_id');
    await this.announce(tenant, eventId, answer);
    return { state: answer.state, entry: answer.entry };
  }

  async leave(claims: InternalClaims, tenant: Tenant, eventId: string, entryId: string): Promise<QueueEntry> {
    const { rate } = await this.room(claims, tenant, eventId);
    const answer = await this.queues.leave(eventId, rate, requiredIdParam(entryId, 'entry_id'), this.clock());
    if (!answer.entry) throw ApiError.resourceMissing('queue entry', entryId, 'entry_id');
    await this.announce(tenant, eventId, answer, answer.leftNow ? { type: 'queue.left', entryId } : undefined);
    if (answer.entry.status === 'left') await this.releaseHoldOf(tenant, answer.entry.id);
    return answer.entry;
  }

  /**
   * An entry that leaves gives its admission up, and with it the seats the admission held:
   * nothing could sell that hold any more (decision 0034). Best effort, as the messages are: a
   * hold not released now ends at its expiry, the admission's at the latest.
   */
  private async releaseHoldOf(tenant: Tenant, entryId: string): Promise<void> {
    await this.prisma
      .$transaction(async (tx) => {
        const released = await new SeatHoldRepository(tx).releaseMadeWith(tenant, entryId, this.clock());
        if (released) await announceEnded(tx, [released]);
      })
      .catch((error: unknown) => this.logger.error({ err: error, entry_id: entryId }, 'the seat hold of an entry that left was not released; it ends at its expiry'));
  }

  /**
   * The room's admission rate and its event's status; refused when catalog says the event has no
   * room enabled, or the tenant no such event. The copy answers when it knows what the caller
   * needs (the room enabled, and with `published`, the event published); otherwise catalog does,
   * since the copy lags it: an event published a moment ago must take the buyers it sends to queue.
   */
  private async room(claims: InternalClaims, tenant: Tenant, eventId: string, needs: { published?: boolean } = {}): Promise<{ rate: number; status: string }> {
    const id = requiredIdParam(eventId, 'event_id');
    const copy = await new EventSettingsRepository(this.prisma).find(tenant, id);
    if (copy?.waiting_room_enabled && copy.admission_rate_per_minute !== null && (!needs.published || copy.status === 'published')) {
      return { rate: copy.admission_rate_per_minute, status: copy.status };
    }
    const { waitingRoom, status } = await this.catalog.eventFacts(claims, id);
    if (!waitingRoom.enabled || waitingRoom.admissionRatePerMinute === 0) throw waitingRoomDisabled(id);
    return { rate: waitingRoom.admissionRatePerMinute, status };
  }

  /**
   * Publishes what the call changed. The queue lives in Redis, so this write follows it rather
   * than sharing its transaction: a crash in between loses the message, never the queue's state.
   */
  private async announce(tenant: Tenant, eventId: string, answer: QueueAnswer, change?: { type: 'queue.joined' | 'queue.left'; entryId: string }): Promise<void> {
    if (!change && answer.admittedNow.length === 0) return;
    await this.prisma
      .$transaction(async (tx) => {
        if (change) await enqueueEvent(tx, { topic: TICKETING_QUEUE_TOPIC, type: change.type, aggregateId: eventId, tenant, data: { event_id: eventId, entry_id: change.entryId } });
        if (answer.admittedNow.length > 0) {
          await enqueueEvent(tx, { topic: TICKETING_QUEUE_TOPIC, type: 'queue.admitted', aggregateId: eventId, tenant, data: { event_id: eventId, entry_ids: answer.admittedNow } });
        }
      })
      .catch((error: unknown) => this.logger.error({ err: error, event_id: eventId }, 'waiting-room change not published'));
  }
}
