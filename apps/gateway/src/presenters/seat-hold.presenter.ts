import { z } from 'zod';
import { SEAT_HOLD_PURPOSES, type ticketingV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const SEAT_HOLD_STATUSES = ['active', 'released', 'expired'] as const;

export const seatHoldResource = z
  .object({
    ...resourceFields('seat_hold'),
    event_id: z.string(),
    seats: z
      .array(z.object({ id: z.string().meta({ description: '"<section>:<row>:<seat>", as the seat map names it.' }), tier_id: z.string().meta({ description: 'The seated tier the seat sells under.' }) }))
      .meta({ description: 'Every seat held, in the order asked.' }),
    status: z.enum(SEAT_HOLD_STATUSES).meta({ description: 'active until released (DELETE) or expired at `expires_at`; then its seats are free again.' }),
    purpose: z.enum(SEAT_HOLD_PURPOSES).meta({ description: '`sale`, or `comp`: held for the guest list, and taken only by a comp.' }),
    expires_at: timestamp,
    released_at: timestamp.nullable().meta({ description: 'When it stopped holding its seats (released or expired); null while active.' }),
  })
  .meta({
    id: 'SeatHold',
    example: {
      id: 'hold_01JD3WE2F4H6K8M0P2R4T6V8X0',
      object: 'seat_hold',
      livemode: false,
      event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
      seats: [
        { id: 'Stalls:A:1', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3' },
        { id: 'Stalls:A:2', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3' },
      ],
      status: 'active',
      purpose: 'sale',
      expires_at: '2027-03-01T10:10:00.000Z',
      created_at: '2027-03-01T10:00:00.000Z',
      released_at: null,
    },
  });

export function presentSeatHold(hold: ticketingV1.SeatHold): z.output<typeof seatHoldResource> {
  return {
    id: hold.id,
    object: 'seat_hold',
    livemode: hold.livemode,
    event_id: hold.event_id,
    seats: hold.seats.map((seat) => ({ id: seat.id, tier_id: seat.tier_id })),
    status: oneOf(SEAT_HOLD_STATUSES, hold.status, 'seat hold status'),
    purpose: oneOf(SEAT_HOLD_PURPOSES, hold.purpose, 'seat hold purpose'),
    expires_at: hold.expires_at,
    created_at: hold.created_at,
    released_at: nullIfEmpty(hold.released_at),
  };
}
