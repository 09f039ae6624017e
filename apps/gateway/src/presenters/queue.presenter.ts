import { z } from 'zod';
import type { ticketingV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { timestamp } from './resource.schema';

const QUEUE_ENTRY_STATUSES = ['waiting', 'admitted', 'left'] as const;

export const queueEntryResource = z
  .object({
    id: z.string(),
    object: z.literal('queue_entry'),
    livemode: z.boolean().meta({ description: 'true in live mode, false in test mode.' }),
    event_id: z.string(),
    status: z.enum(QUEUE_ENTRY_STATUSES).meta({ description: 'waiting until admitted (first in, first out, at the event’s rate), or left.' }),
    position: z.number().int().nullable().meta({ description: '1 for the next entry to be admitted; null unless waiting.' }),
    joined_at: timestamp,
    admitted_at: timestamp.nullable(),
    admission_token: z.string().nullable().meta({ description: 'Once admitted: pass it as `admission_token` when issuing tickets. It lets one issuance through.' }),
    admission_expires_at: timestamp.nullable().meta({ description: 'Until when the admission token is accepted.' }),
  })
  .meta({
    id: 'QueueEntry',
    example: {
      id: 'qen_01JD3WF3G5J7L9N1Q3S5U7W9Y1',
      object: 'queue_entry',
      livemode: false,
      event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
      status: 'waiting',
      position: 42,
      joined_at: '2027-03-01T09:59:58.000Z',
      admitted_at: null,
      admission_token: null,
      admission_expires_at: null,
    },
  });

export const queueResource = z
  .object({
    object: z.literal('queue'),
    livemode: z.boolean(),
    event_id: z.string(),
    length: z.number().int().meta({ description: 'Entries waiting now.' }),
    admitted: z.number().int().meta({ description: 'Entries admitted since the room opened.' }),
    admission_rate_per_minute: z.number().int(),
    entry: queueEntryResource.nullable().meta({ description: 'The entry named by `entry_id`; null without it.' }),
  })
  .meta({ id: 'Queue', example: { object: 'queue', livemode: false, event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST', length: 1250, admitted: 400, admission_rate_per_minute: 200, entry: null } });

export function presentQueueEntry(entry: ticketingV1.QueueEntry): z.output<typeof queueEntryResource> {
  return {
    id: entry.id,
    object: 'queue_entry',
    livemode: entry.livemode,
    event_id: entry.event_id,
    status: oneOf(QUEUE_ENTRY_STATUSES, entry.status, 'queue entry status'),
    position: entry.status === 'waiting' ? entry.position : null,
    joined_at: entry.joined_at,
    admitted_at: nullIfEmpty(entry.admitted_at),
    admission_token: nullIfEmpty(entry.admission_token),
    admission_expires_at: nullIfEmpty(entry.admission_expires_at),
  };
}

export function presentQueue(queue: ticketingV1.Queue): z.output<typeof queueResource> {
  return {
    object: 'queue',
    livemode: queue.livemode,
    event_id: queue.event_id,
    length: queue.length,
    admitted: queue.admitted,
    admission_rate_per_minute: queue.admission_rate_per_minute,
    entry: queue.entry ? presentQueueEntry(queue.entry) : null,
  };
}
