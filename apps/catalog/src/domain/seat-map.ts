import type { SeatStatus } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';

/** An event's layout as stored: sections → rows → seats, each seat sold under one seated tier. */
export interface SeatLayout {
  sections: Array<{ label: string; rows: Array<{ label: string; seats: Array<{ label: string; tier_id: string }> }> }>;
}

export type { SeatStatus };

export const MAX_SEATS = 100_000;
const LABEL = /^[^:\s][^:]{0,19}$/;

/** The identifier of a seat across services: labels cannot contain ':', so it is unambiguous. */
export function seatId(section: string, row: string, seat: string): string {
  return `${section}:${row}:${seat}`;
}

/**
 * A label trimmed and in Unicode's composed form (NFC), as seat ids are matched: 'é' typed as one
 * character or as 'e' and a combining accent is the same label, so it cannot name two seats.
 */
function validLabel(label: string, param: string): string {
  const composed = label.trim().normalize('NFC');
  if (!LABEL.test(composed)) throw new ApiError('parameter_invalid', `${param} must be 1 to 20 characters without ':'.`, { param });
  return composed;
}

function assertUnique(labels: string[], param: string, within: string): void {
  const seen = new Set<string>();
  labels.forEach((label, index) => {
    if (seen.has(label)) throw new ApiError('parameter_invalid', `Label '${label}' appears twice ${within}.`, { param: `${param}[${index}].label` });
    seen.add(label);
  });
}

/**
 * Checks a layout against the event's seated tiers: labels unique at each level, every seat
 * mapped to one of those tiers, and at least one seat. Returns the layout and its seat count.
 */
export function validSeatLayout(sections: SeatLayout['sections'], seatedTierIds: ReadonlySet<string>): { layout: SeatLayout; seatCount: number } {
  if (sections.length === 0) throw new ApiError('parameter_missing', 'A seat map needs at least one section.', { param: 'sections' });
  let seatCount = 0;
  const layout: SeatLayout = {
    sections: sections.map((section, s) => {
      const sectionParam = `sections[${s}]`;
      const rows = section.rows.map((row, r) => {
        const rowParam = `${sectionParam}.rows[${r}]`;
        const seats = row.seats.map((seat, k) => {
          const seatParam = `${rowParam}.seats[${k}]`;
          if (!seatedTierIds.has(seat.tier_id)) {
            throw new ApiError('parameter_invalid', `${seatParam}.tier_id must be a seated tier of this event; '${seat.tier_id}' is not.`, { param: `${seatParam}.tier_id` });
          }
          return { label: validLabel(seat.label, `${seatParam}.label`), tier_id: seat.tier_id };
        });
        assertUnique(seats.map((seat) => seat.label), `${rowParam}.seats`, `in ${rowParam}`);
        seatCount += seats.length;
        return { label: validLabel(row.label, `${rowParam}.label`), seats };
      });
      assertUnique(rows.map((row) => row.label), `${sectionParam}.rows`, `in ${sectionParam}`);
      return { label: validLabel(section.label, `${sectionParam}.label`), rows };
    }),
  };
  assertUnique(layout.sections.map((section) => section.label), 'sections', 'among the sections');
  if (seatCount === 0) throw new ApiError('parameter_missing', 'A seat map needs at least one seat.', { param: 'sections' });
  if (seatCount > MAX_SEATS) throw new ApiError('parameter_invalid', `A seat map holds at most ${MAX_SEATS} seats.`, { param: 'sections' });
  return { layout, seatCount };
}

export interface SeatMapView {
  sections: Array<{ label: string; rows: Array<{ label: string; seats: Array<{ id: string; label: string; tier_id: string; status: SeatStatus }> }> }>;
  counts: Record<SeatStatus, number>;
}

/** The layout with each seat's status; seats without a known status are available. */
export function seatMapView(layout: SeatLayout, statuses: ReadonlyMap<string, SeatStatus>): SeatMapView {
  const counts: Record<SeatStatus, number> = { available: 0, held: 0, sold: 0 };
  const sections = layout.sections.map((section) => ({
    label: section.label,
    rows: section.rows.map((row) => ({
      label: row.label,
      seats: row.seats.map((seat) => {
        const id = seatId(section.label, row.label, seat.label);
        const status = statuses.get(id) ?? 'available';
        counts[status] += 1;
        return { id, label: seat.label, tier_id: seat.tier_id, status };
      }),
    })),
  }));
  return { sections, counts };
}

/** The tier of each seat in `seatIds`, in order; a seat the layout does not have is refused, all of them named. */
export function locateSeats(layout: SeatLayout, seatIds: readonly string[]): Array<{ seat_id: string; tier_id: string }> {
  const tiers = new Map<string, string>();
  for (const section of layout.sections) {
    for (const row of section.rows) for (const seat of row.seats) tiers.set(seatId(section.label, row.label, seat.label), seat.tier_id);
  }
  const unknown = seatIds.filter((id) => !tiers.has(id));
  if (unknown.length > 0) throw new ApiError('parameter_invalid', `The event's seat map has no seat ${unknown.map((id) => `'${id}'`).join(', ')}.`, { param: 'seats' });
  return seatIds.map((id) => ({ seat_id: id, tier_id: tiers.get(id)! }));
}

/**
 * How long after a seat hold asked for a seat a new layout may not drop it or move it to another
 * tier: the hold commits in ticketing after catalog located its seats, and catalog hears of it
 * (seat.held) a moment later, well within a minute unless Kafka is down.
 */
export const LOCATED_SEAT_GUARD_SECONDS = 60;
