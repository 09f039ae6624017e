import type { Tenant } from '@ticketing/auth';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import type { RawSqlClient } from '@ticketing/db';
import { enqueueEvent } from '@ticketing/kafka';
import type { TicketingSeatHold } from '../../domain/seat-hold';
import type { EndedSeatHold } from '../../repositories/seat-hold.repository';

/** `seat.held` for a new hold, in the caller's transaction: catalog's seat map shows its seats held. */
export async function announceHeld(tx: RawSqlClient, tenant: Tenant, hold: TicketingSeatHold): Promise<void> {
  await enqueueEvent(tx, {
    topic: TICKETING_SEAT_TOPIC,
    type: 'seat.held',
    aggregateId: hold.event_id,
    tenant,
    data: { event_id: hold.event_id, seat_ids: hold.seats.map((seat) => seat.id), hold_id: hold.id, expires_at: hold.expires_at.toISOString() },
  });
}

/** `seat.released` for each hold just ended, in the caller's transaction: its seats are available again. */
export async function announceEnded(tx: RawSqlClient, endedHolds: readonly EndedSeatHold[]): Promise<void> {
  for (const { hold, tenant } of endedHolds) {
    await enqueueEvent(tx, {
      topic: TICKETING_SEAT_TOPIC,
      type: 'seat.released',
      aggregateId: hold.event_id,
      tenant,
      data: { event_id: hold.event_id, seat_ids: hold.seats.map((seat) => seat.id), hold_id: hold.id, reason: hold.status === 'expired' ? 'expired' : 'released' },
    });
  }
}
