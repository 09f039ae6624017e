import { z } from 'zod';
import { SEAT_STATUSES, type catalogV1, type SeatStatus } from '@ticketing/contracts';
import { timestamp } from './resource.schema';

const seat = z.object({
  id: z.string().meta({ description: '"<section>:<row>:<seat>": how ticketing names the seat.', example: 'Stalls:A:12' }),
  label: z.string().meta({ example: '12' }),
  tier_id: z.string().meta({ example: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3' }),
  status: z.enum(SEAT_STATUSES).meta({ description: 'As ticketing last published it.' }),
});

export const seatMapResource = z
  .object({
    object: z.literal('seatmap'),
    event_id: z.string(),
    livemode: z.boolean(),
    sections: z.array(z.object({ label: z.string().meta({ example: 'Stalls' }), rows: z.array(z.object({ label: z.string().meta({ example: 'A' }), seats: z.array(seat) })) })),
    seat_count: z.number().int(),
    available_count: z.number().int(),
    held_count: z.number().int(),
    sold_count: z.number().int(),
    updated_at: timestamp,
  })
  .meta({
    id: 'SeatMap',
    example: {
      object: 'seatmap',
      event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
      livemode: false,
      sections: [
        {
          label: 'Stalls',
          rows: [
            {
              label: 'A',
              seats: [
                { id: 'Stalls:A:1', label: '1', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', status: 'sold' },
                { id: 'Stalls:A:2', label: '2', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', status: 'available' },
              ],
            },
          ],
        },
      ],
      seat_count: 2,
      available_count: 1,
      held_count: 0,
      sold_count: 1,
      updated_at: '2027-01-12T14:30:00.000Z',
    },
  });

function seatStatus(value: string): SeatStatus {
  const status = SEAT_STATUSES.find((known) => known === value);
  if (!status) throw new Error(`catalog answered an unknown seat status '${value}'`);
  return status;
}

export function presentSeatMap(map: catalogV1.SeatMap): z.output<typeof seatMapResource> {
  return {
    object: 'seatmap',
    event_id: map.event_id,
    livemode: map.livemode,
    sections: map.sections.map((section) => ({
      label: section.label,
      rows: section.rows.map((row) => ({ label: row.label, seats: row.seats.map((s) => ({ id: s.id, label: s.label, tier_id: s.tier_id, status: seatStatus(s.status) })) })),
    })),
    seat_count: map.seat_count,
    available_count: map.available_count,
    held_count: map.held_count,
    sold_count: map.sold_count,
    updated_at: map.updated_at,
  };
}
