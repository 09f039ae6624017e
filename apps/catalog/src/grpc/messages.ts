import { RESERVATION_KIND_MESSAGES, type catalogV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { CatalogEvent } from '../domain/event';
import type { CatalogOrganization } from '../domain/organization';
import { RESERVATION_KINDS, type ReservationKind, type ReservationView, type ReturnView } from '../domain/reservation';
import type { SeatMapView } from '../domain/seat-map';
import type { CatalogTier } from '../domain/tier';


/** Catalog's records as gRPC messages: proto3 has no null, so "not set" is '' (or 0, or absent). */
const iso = (date: Date | null) => date?.toISOString() ?? '';

export function toTierMessage(tier: CatalogTier): catalogV1.Tier {
  return {
    id: tier.id,
    livemode: tier.mode === 'live',
    event_id: tier.event_id,
    name: tier.name,
    price: tier.price,
    currency: tier.currency,
    capacity: tier.capacity,
    held: tier.held,
    sold: tier.sold,
    sales_start_at: iso(tier.sales_start_at),
    sales_end_at: iso(tier.sales_end_at),
    min_per_order: tier.min_per_order,
    max_per_order: tier.max_per_order ?? 0,
    seated: tier.seated,
    rank: tier.rank,
    created_at: iso(tier.created_at),
    updated_at: iso(tier.updated_at),
  };
}

export function toEventMessage(event: CatalogEvent): catalogV1.Event {
  const { venue } = event;
  return {
    id: event.id,
    livemode: event.mode === 'live',
    name: event.name,
    description: event.description ?? '',
    organization_id: event.organization_id ?? '',
    venue: venue
      ? { name: venue.name, address: venue.address ?? '', city: venue.city ?? '', country: venue.country ?? '', timezone: venue.timezone ?? '' }
      : undefined,
    starts_at: iso(event.starts_at),
    ends_at: iso(event.ends_at),
    category: event.category ?? '',
    tags: event.tags,
    currency: event.currency,
    status: event.status,
    waiting_room: { enabled: event.waiting_room.enabled, admission_rate_per_minute: event.waiting_room.admission_rate_per_minute ?? 0 },
    tiers: event.tiers.map(toTierMessage),
    has_seatmap: event.has_seatmap,
    created_at: iso(event.created_at),
    updated_at: iso(event.updated_at),
  };
}

export function toOrganizationMessage(organization: CatalogOrganization): catalogV1.Organization {
  return {
    id: organization.id,
    livemode: organization.mode === 'live',
    name: organization.name,
    description: organization.description ?? '',
    website: organization.website ?? '',
    contact_email: organization.contact_email ?? '',
    created_at: iso(organization.created_at),
    updated_at: iso(organization.updated_at),
  };
}

export function toSeatMapMessage(eventId: string, livemode: boolean, view: SeatMapView & { updated_at: Date }): catalogV1.SeatMap {
  return {
    event_id: eventId,
    livemode,
    sections: view.sections,
    seat_count: view.counts.available + view.counts.held + view.counts.sold,
    available_count: view.counts.available,
    held_count: view.counts.held,
    sold_count: view.counts.sold,
    updated_at: iso(view.updated_at),
  };
}


export function toReservationMessage({ reservation, tier }: ReservationView): catalogV1.Reservation {
  return {
    id: reservation.id,
    livemode: reservation.mode === 'live',
    event_id: reservation.event_id,
    tier_id: reservation.tier_id,
    kind: RESERVATION_KIND_MESSAGES[reservation.kind],
    quantity: reservation.quantity,
    status: reservation.status,
    expires_at: iso(reservation.expires_at),
    created_at: iso(reservation.created_at),
    committed_at: iso(reservation.committed_at),
    released_at: iso(reservation.released_at),
    tier: toTierMessage(tier),
    quote: undefined,
    waiting_room_enabled: false,
  };
}

export function toInventoryReturnMessage({ request, reservationReturned, tier }: ReturnView): catalogV1.InventoryReturn {
  return { id: request.id, reservation_id: request.reservation_id, quantity: request.quantity, reservation_returned: reservationReturned, tier: toTierMessage(tier) };
}

/** The kind a caller asked for; leaving it out is an error, not a default, since the rules differ. */
export function fromReservationKindMessage(kind: catalogV1.ReservationKind): ReservationKind {
  const found = RESERVATION_KINDS.find((name) => RESERVATION_KIND_MESSAGES[name] === kind);
  if (!found) throw new ApiError('parameter_invalid', `kind must be ${RESERVATION_KINDS.map((name) => `RESERVATION_KIND_${name.toUpperCase()}`).join(' or ')}.`, { param: 'kind' });
  return found;
}
