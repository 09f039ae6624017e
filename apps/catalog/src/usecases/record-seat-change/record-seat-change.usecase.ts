import type { EventOf } from '@ticketing/contracts';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { recordFirstDelivery } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import type { CatalogChanges } from '../../reads/announce-writes';
import type { SeatStatus } from '../../domain/seat-map';
import { EventRepository } from '../../repositories/event.repository';
import { SeatMapRepository } from '../../repositories/seat-map.repository';

export type SeatChange = EventOf<typeof TICKETING_SEAT_TOPIC>;
export type SeatChangeOutcome = 'applied' | 'redelivery' | 'no_such_event';

const STATUS_AFTER: Record<SeatChange['type'], SeatStatus> = {
  'seat.held': 'held',
  'seat.sold': 'sold',
  'seat.released': 'available',
};

/**
 * Applies what ticketing published about seats, once however often Kafka delivers it, and only
 * over what an older message said (a late or replayed one changes nothing, decision 0014). A message
 * about an event its tenant does not own changes nothing: a misrouted message must not touch
 * another account's or mode's seats. An applied change is announced to catalog's readers
 * (decision 0051).
 */
export class RecordSeatChangeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly consumerName: string,
    private readonly changes: CatalogChanges,
  ) {}

  /** `applied`, or why not: a redelivery, or an event its tenant (account and mode) does not have. */
  async execute(change: SeatChange): Promise<SeatChangeOutcome> {
    const tenant = { accountId: change.account_id, mode: change.mode };
    const outcome = await this.prisma.$transaction(async (tx): Promise<SeatChangeOutcome> => {
      if (!(await recordFirstDelivery(tx, this.consumerName, change.id))) return 'redelivery';
      if (!(await new EventRepository(tx).exists(tenant, change.data.event_id))) return 'no_such_event';
      await new SeatMapRepository(tx).setStatus(tenant, change.data.event_id, change.data.seat_ids, STATUS_AFTER[change.type], new Date(change.occurred_at));
      return 'applied';
    });
    if (outcome === 'applied') await this.changes.changed(tenant);
    return outcome;
  }
}
