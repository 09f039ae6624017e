import type { catalogV1 } from '@ticketing/contracts';

/** Complete gRPC requests (proto3: '' and absent mean "not given") with only what a test cares about set. */
export function createEventRequest(fields: Partial<catalogV1.CreateEventRequest> = {}): catalogV1.CreateEventRequest {
  return {
    name: 'Dockside',
    starts_at: '2027-04-01T18:00:00Z',
    description: '',
    organization_id: '',
    venue: undefined,
    ends_at: '',
    category: '',
    tags: [],
    currency: '',
    waiting_room: undefined,
    ...fields,
  };
}

export function updateEventRequest(id: string, fields: Partial<catalogV1.UpdateEventRequest> = {}): catalogV1.UpdateEventRequest {
  return { id, venue: undefined, tags: undefined, waiting_room: undefined, ...fields };
}

export function listEventsRequest(fields: Partial<catalogV1.ListEventsRequest> = {}): catalogV1.ListEventsRequest {
  return { page: { limit: 100, starting_after: '' }, status: '', organization_id: '', starts_after: '', starts_before: '', q: '', ...fields };
}

export function createTierRequest(eventId: string, fields: Partial<catalogV1.CreateTierRequest> = {}): catalogV1.CreateTierRequest {
  return { event_id: eventId, name: 'General admission', price: 4500, capacity: 100, sales_start_at: '', sales_end_at: '', seated: false, rank: 0, ...fields };
}

export function venue(fields: Partial<catalogV1.Venue> = {}): catalogV1.Venue {
  return { name: 'Paradiso', address: '', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam', ...fields };
}
