import type { EventOf } from '@ticketing/contracts';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { recordFirstDelivery } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import type { SeatStatus } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

export type SeatChange = EventOf<typeof TICKETING_SEAT_TOPIC>;

const STATUS_AFTER: Record<SeatChange['type'], SeatStatus> = {
  'seat.held': 'held',
  'seat.sold': 'sold',
  'seat.released': 'available',
};

/**
 * Applies what ticketing published about seats, once however often Kafka delivers it. A message
 * about an event its tenant does not own changes nothing: a misrouted message must not touch
 * another account's or mode's seats.
 */
export class RecordSeatChangeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly consumerName: string,
  ) {}

  /** True when this delivery changed the statuses; false for a redelivery or another tenant's event. */
  execute(change: SeatChange): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await recordFirstDelivery(tx, this.consumerName, change.id))) return false;
      const tenant = { accountId: change.account_id, mode: change.mode };
      if (!(await new EventRepository(tx).exists(tenant, change.data.event_id))) return false;
      await new SeatMapRepository(tx).setStatus(tenant, change.data.event_id, change.data.seat_ids, STATUS_AFTER[change.type]);
      return true;
    });
  }
}
