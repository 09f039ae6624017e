import { ApiError } from '@ticketing/errors';
import { locateSeats, MAX_SEATS, seatId, seatMapView, validSeatLayout, type SeatLayout, type SeatStatus } from './seat-map';

type Sections = SeatLayout['sections'];

const seated = new Set(['tier_front', 'tier_back']);

const seats = (tierId: string, ...labels: string[]) => labels.map((label) => ({ label, tier_id: tierId }));

/** Two sections; the floor has two rows of three seats, the balcony one row of two. */
const layout = (): Sections => [
  {
    label: 'Floor',
    rows: [
      { label: 'A', seats: seats('tier_front', '1', '2', '3') },
      { label: 'B', seats: seats('tier_front', '1', '2', '3') },
    ],
  },
  { label: 'Balcony', rows: [{ label: 'A', seats: seats('tier_back', '1', '2') }] },
];

function thrown(act: () => void): ApiError {
  try {
    act();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('seatId', () => {
  it('joins section, row and seat with colons', () => {
    expect(seatId('Floor', 'A', '12')).toBe('Floor:A:12');
  });
});

describe('validSeatLayout', () => {
  it('returns the layout and counts its seats', () => {
    const { layout: stored, seatCount } = validSeatLayout(layout(), seated);
    expect(seatCount).toBe(8);
    expect(stored).toEqual({ sections: layout() });
  });

  it('trims labels at every level', () => {
    const { layout: stored } = validSeatLayout([{ label: ' Floor ', rows: [{ label: ' A', seats: [{ label: '1 ', tier_id: 'tier_front' }] }] }], seated);
    expect(stored).toEqual({ sections: [{ label: 'Floor', rows: [{ label: 'A', seats: [{ label: '1', tier_id: 'tier_front' }] }] }] });
  });

  it('refuses a layout without sections', () => {
    expect(thrown(() => validSeatLayout([], seated))).toMatchObject({ code: 'parameter_missing', param: 'sections', status: 400 });
  });

  it('refuses a layout without seats', () => {
    expect(thrown(() => validSeatLayout([{ label: 'Floor', rows: [] }], seated))).toMatchObject({ code: 'parameter_missing', param: 'sections' });
    expect(thrown(() => validSeatLayout([{ label: 'Floor', rows: [{ label: 'A', seats: [] }] }], seated))).toMatchObject({
      code: 'parameter_missing',
      param: 'sections',
      message: 'A seat map needs at least one seat.',
    });
  });

  it('refuses a seat whose tier is not one of the seated tiers, pointing at that seat', () => {
    const sections = layout();
    sections[0]!.rows[1]!.seats[2]!.tier_id = 'tier_standing';
    const error = thrown(() => validSeatLayout(sections, seated));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'sections[0].rows[1].seats[2].tier_id' });
    expect(error.message).toContain("'tier_standing'");
    expect(thrown(() => validSeatLayout(layout(), new Set(['tier_front'])))).toMatchObject({ param: 'sections[1].rows[0].seats[0].tier_id' });
  });

  it('refuses a duplicate seat label in a row, pointing at the duplicate', () => {
    const sections = layout();
    sections[0]!.rows[1]!.seats = seats('tier_front', '1', '2', '3', ' 2');
    const error = thrown(() => validSeatLayout(sections, seated));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'sections[0].rows[1].seats[3].label' });
    expect(error.message).toBe("Label '2' appears twice in sections[0].rows[1].");
  });

  it('stores labels composed (NFC), so one typed with a combining accent is the same label as its composed form', () => {
    const sections: Sections = [{ label: 'Loge\u0301', rows: [{ label: 'A', seats: seats('tier_front', 'Caf\u00e9', 'Cafe\u0301') }] }];
    const error = thrown(() => validSeatLayout(sections, seated));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'sections[0].rows[0].seats[1].label' });

    sections[0]!.rows[0]!.seats = seats('tier_front', 'Cafe\u0301');
    const { layout: stored } = validSeatLayout(sections, seated);
    expect(stored.sections[0]!.label).toBe('Log\u00e9');
    expect(stored.sections[0]!.rows[0]!.seats[0]!.label).toBe('Caf\u00e9');
  });

  it('refuses a duplicate row label in a section, pointing at the duplicate', () => {
    const sections = layout();
    sections[0]!.rows.push({ label: 'C', seats: seats('tier_front', '1') }, { label: 'A ', seats: seats('tier_front', '1') });
    expect(thrown(() => validSeatLayout(sections, seated))).toMatchObject({ code: 'parameter_invalid', param: 'sections[0].rows[3].label' });
  });

  it('refuses a duplicate section label, pointing at the duplicate', () => {
    const sections = [...layout(), { label: 'Floor', rows: [{ label: 'Z', seats: seats('tier_back', '1') }] }];
    const error = thrown(() => validSeatLayout(sections, seated));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'sections[2].label' });
    expect(error.message).toBe("Label 'Floor' appears twice among the sections.");
  });

  it('allows the same row and seat labels in different sections and rows', () => {
    // Row A and seats 1-3 repeat across the layout; only siblings must differ.
    expect(validSeatLayout(layout(), seated).seatCount).toBe(8);
  });

  it.each([
    ['section', (sections: Sections, label: string) => (sections[1]!.label = label), 'sections[1].label'],
    ['row', (sections: Sections, label: string) => (sections[0]!.rows[1]!.label = label), 'sections[0].rows[1].label'],
    ['seat', (sections: Sections, label: string) => (sections[0]!.rows[1]!.seats[2]!.label = label), 'sections[0].rows[1].seats[2].label'],
  ])('refuses a bad %s label naming it', (_level, setLabel, param) => {
    for (const bad of ['A:1', ':', '', '   ', 'x'.repeat(21)]) {
      const sections = layout();
      setLabel(sections, bad);
      expect(thrown(() => validSeatLayout(sections, seated))).toMatchObject({ code: 'parameter_invalid', param, message: `${param} must be 1 to 20 characters without ':'.` });
    }
  });

  it('accepts labels of exactly 20 characters, also when padded', () => {
    const label = 'x'.repeat(20);
    const sections: Sections = [{ label: ` ${label} `, rows: [{ label, seats: [{ label: 'Seat 1', tier_id: 'tier_back' }] }] }];
    expect(validSeatLayout(sections, seated).layout.sections[0]?.label).toBe(label);
  });

  it(`refuses more than ${MAX_SEATS} seats`, () => {
    const row = (r: number, count: number) => ({ label: `R${r}`, seats: Array.from({ length: count }, (_, k) => ({ label: `${k}`, tier_id: 'tier_back' })) });
    const atLimit: Sections = [{ label: 'Hall', rows: Array.from({ length: 100 }, (_, r) => row(r, 1000)) }];
    expect(validSeatLayout(atLimit, seated).seatCount).toBe(MAX_SEATS);
    const overLimit: Sections = [...atLimit, { label: 'Extra', rows: [row(0, 1)] }];
    expect(thrown(() => validSeatLayout(overLimit, seated))).toMatchObject({ code: 'parameter_invalid', param: 'sections' });
  });
});

describe('seatMapView', () => {
  const stored: SeatLayout = { sections: layout() };

  it('marks every seat available when no status is known', () => {
    const view = seatMapView(stored, new Map());
    expect(view.counts).toEqual({ available: 8, held: 0, sold: 0 });
    expect(view.sections[0]?.rows[0]?.seats[0]).toEqual({ id: 'Floor:A:1', label: '1', tier_id: 'tier_front', status: 'available' });
  });

  it('takes statuses from the map by seat id and counts each status', () => {
    const statuses = new Map<string, SeatStatus>([
      ['Floor:A:1', 'sold'],
      ['Floor:A:2', 'sold'],
      ['Floor:B:3', 'held'],
      ['Balcony:A:1', 'available'],
      ['Nowhere:A:1', 'sold'],
    ]);
    const view = seatMapView(stored, statuses);
    expect(view.counts).toEqual({ available: 5, held: 1, sold: 2 });
    expect(view.sections).toEqual([
      {
        label: 'Floor',
        rows: [
          {
            label: 'A',
            seats: [
              { id: 'Floor:A:1', label: '1', tier_id: 'tier_front', status: 'sold' },
              { id: 'Floor:A:2', label: '2', tier_id: 'tier_front', status: 'sold' },
              { id: 'Floor:A:3', label: '3', tier_id: 'tier_front', status: 'available' },
            ],
          },
          {
            label: 'B',
            seats: [
              { id: 'Floor:B:1', label: '1', tier_id: 'tier_front', status: 'available' },
              { id: 'Floor:B:2', label: '2', tier_id: 'tier_front', status: 'available' },
              { id: 'Floor:B:3', label: '3', tier_id: 'tier_front', status: 'held' },
            ],
          },
        ],
      },
      {
        label: 'Balcony',
        rows: [
          {
            label: 'A',
            seats: [
              { id: 'Balcony:A:1', label: '1', tier_id: 'tier_back', status: 'available' },
              { id: 'Balcony:A:2', label: '2', tier_id: 'tier_back', status: 'available' },
            ],
          },
        ],
      },
    ]);
  });
});

describe('locateSeats', () => {
  it('answers the tier of each seat, in the order asked', () => {
    expect(locateSeats({ sections: layout() }, ['Balcony:A:2', 'Floor:B:1'])).toEqual([
      { seat_id: 'Balcony:A:2', tier_id: 'tier_back' },
      { seat_id: 'Floor:B:1', tier_id: 'tier_front' },
    ]);
  });

  it('refuses seats the layout does not have, naming every one', () => {
    const error = thrown(() => locateSeats({ sections: layout() }, ['Floor:A:1', 'Floor:C:1', 'Balcony:A:9']));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'seats' });
    expect(error.message).toBe("The event's seat map has no seat 'Floor:C:1', 'Balcony:A:9'.");
  });
});
