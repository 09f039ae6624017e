import { ApiError } from '@ticketing/errors';
import {
  changedWaitingRoom,
  validWaitingRoomChange,
  assertEndsAfterStart,
  DEFAULT_CURRENCY,
  MAX_ADMISSION_RATE_PER_MINUTE,
  MAX_TAGS,
  validCategory,
  validCurrency,
  validEventName,
  validStartsAt,
  validTags,
  validVenue,
  validWaitingRoom,
  type VenueInput,
} from './event';

const venue = (overrides: Partial<VenueInput> = {}): VenueInput => ({
  name: 'Paradiso',
  address: 'Weteringschans 6-8',
  city: 'Amsterdam',
  country: 'NL',
  timezone: 'Europe/Amsterdam',
  ...overrides,
});

describe('event rules', () => {
  it('trims names and refuses empty or overlong ones, naming the parameter', () => {
    expect(validEventName('  Summer Fest ')).toBe('Summer Fest');
    for (const bad of ['', '   ', 'x'.repeat(201)]) {
      expect(() => validEventName(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    }
  });

  it('parses ISO 8601 start times and refuses anything else', () => {
    expect(validStartsAt('2027-06-01T19:30:00Z').toISOString()).toBe('2027-06-01T19:30:00.000Z');
    expect(() => validStartsAt('next friday')).toThrow(ApiError);
    expect(() => validStartsAt('')).toThrow(expect.objectContaining({ param: 'starts_at' }));
  });
});

describe('validVenue', () => {
  it('treats an absent venue or one without a name as no venue', () => {
    expect(validVenue(undefined)).toBeNull();
    expect(validVenue(venue({ name: '' }))).toBeNull();
    expect(validVenue(venue({ name: '   ' }))).toBeNull();
    // Without a name nothing else is checked.
    expect(validVenue(venue({ name: '', country: 'Netherlands', timezone: 'Mars/Olympus' }))).toBeNull();
  });

  it('keeps a full venue, trimming text and upper-casing the country', () => {
    expect(validVenue(venue({ name: '  Paradiso ', city: ' Amsterdam ', country: 'nl' }))).toEqual({
      name: 'Paradiso',
      address: 'Weteringschans 6-8',
      city: 'Amsterdam',
      country: 'NL',
      timezone: 'Europe/Amsterdam',
    });
  });

  it('turns empty optional parts into null', () => {
    expect(validVenue({ name: 'Paradiso', address: '', city: ' ', country: '', timezone: '' })).toEqual({
      name: 'Paradiso',
      address: null,
      city: null,
      country: null,
      timezone: null,
    });
  });

  it.each(['N', 'NLD', 'N1', 'Netherlands', ' NL', '  ', 'ZZ', 'UK', 'EU', 'XX'])('refuses country %p naming venue.country', (country) => {
    expect(() => validVenue(venue({ country }))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'venue.country', status: 400 }));
  });

  it.each(['Mars/Olympus', 'Europe/Atlantis', 'CEST+2', 'not a zone'])('refuses time zone %p naming venue.timezone', (timezone) => {
    expect(() => validVenue(venue({ timezone }))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'venue.timezone' }));
  });

  it.each(['Europe/Amsterdam', 'America/New_York', 'Asia/Kolkata', 'UTC'])('keeps the IANA time zone %p as given', (timezone) => {
    expect(validVenue(venue({ timezone }))?.timezone).toBe(timezone);
  });

  it('stores a time zone in its canonical spelling', () => {
    expect(validVenue(venue({ timezone: 'europe/amsterdam' }))?.timezone).toBe('Europe/Amsterdam');
  });

  it('refuses overlong parts naming the part', () => {
    expect(() => validVenue(venue({ name: 'x'.repeat(201) }))).toThrow(expect.objectContaining({ param: 'venue.name' }));
    expect(validVenue(venue({ name: 'x'.repeat(200) }))?.name).toHaveLength(200);
    expect(() => validVenue(venue({ address: 'x'.repeat(501) }))).toThrow(expect.objectContaining({ param: 'venue.address' }));
    expect(() => validVenue(venue({ city: 'x'.repeat(101) }))).toThrow(expect.objectContaining({ param: 'venue.city' }));
  });
});

describe('validWaitingRoom', () => {
  it('is disabled without a rate when absent', () => {
    expect(validWaitingRoom(undefined)).toEqual({ enabled: false, admission_rate_per_minute: null });
  });

  it('keeps an enabled room with its rate', () => {
    expect(validWaitingRoom({ enabled: true, admission_rate_per_minute: 120 })).toEqual({ enabled: true, admission_rate_per_minute: 120 });
    expect(validWaitingRoom({ enabled: true, admission_rate_per_minute: 1 })).toEqual({ enabled: true, admission_rate_per_minute: 1 });
    expect(validWaitingRoom({ enabled: true, admission_rate_per_minute: MAX_ADMISSION_RATE_PER_MINUTE })).toEqual({
      enabled: true,
      admission_rate_per_minute: 1_000_000,
    });
  });

  it('reads a rate of 0 as not given', () => {
    expect(validWaitingRoom({ enabled: false, admission_rate_per_minute: 0 })).toEqual({ enabled: false, admission_rate_per_minute: null });
  });

  it('keeps the rate of a disabled room', () => {
    expect(validWaitingRoom({ enabled: false, admission_rate_per_minute: 60 })).toEqual({ enabled: false, admission_rate_per_minute: 60 });
  });

  it('refuses an enabled room without a rate as parameter_missing', () => {
    expect(() => validWaitingRoom({ enabled: true, admission_rate_per_minute: 0 })).toThrow(
      expect.objectContaining({ code: 'parameter_missing', param: 'waiting_room.admission_rate_per_minute', status: 400 }),
    );
  });

  it.each([-1, 1.5, MAX_ADMISSION_RATE_PER_MINUTE + 1, Number.NaN, Number.POSITIVE_INFINITY])('refuses the rate %p as parameter_invalid', (rate) => {
    for (const enabled of [true, false]) {
      expect(() => validWaitingRoom({ enabled, admission_rate_per_minute: rate })).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'waiting_room.admission_rate_per_minute' }),
      );
    }
  });
});

describe('changedWaitingRoom', () => {
  it('keeps the current rate when the change leaves it out, and takes a given one', () => {
    expect(changedWaitingRoom(validWaitingRoomChange({ enabled: false, admission_rate_per_minute: 0 }), 300)).toEqual({ enabled: false, admission_rate_per_minute: 300 });
    expect(changedWaitingRoom(validWaitingRoomChange({ enabled: true, admission_rate_per_minute: 0 }), 300)).toEqual({ enabled: true, admission_rate_per_minute: 300 });
    expect(changedWaitingRoom(validWaitingRoomChange({ enabled: true, admission_rate_per_minute: 60 }), 300)).toEqual({ enabled: true, admission_rate_per_minute: 60 });
  });

  it('refuses to enable a room that has no rate and is given none', () => {
    expect(() => changedWaitingRoom(validWaitingRoomChange({ enabled: true, admission_rate_per_minute: 0 }), null)).toThrow(
      expect.objectContaining({ code: 'parameter_missing', param: 'waiting_room.admission_rate_per_minute' }),
    );
  });
});

describe('validTags', () => {
  it('trims, lower-cases and removes duplicates, keeping first-seen order', () => {
    expect(validTags([' Rock', 'jazz', 'ROCK', 'Jazz ', 'indie'])).toEqual(['rock', 'jazz', 'indie']);
    expect(validTags([])).toEqual([]);
  });

  it(`accepts ${MAX_TAGS} tags and refuses more, counting before removing duplicates`, () => {
    const twenty = Array.from({ length: MAX_TAGS }, (_, index) => `tag${index}`);
    expect(validTags(twenty)).toEqual(twenty);
    expect(() => validTags([...twenty, 'one-more'])).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'tags' }));
    expect(() => validTags(Array.from({ length: MAX_TAGS + 1 }, () => 'same'))).toThrow(expect.objectContaining({ param: 'tags' }));
  });

  it.each(['', '   ', 'x'.repeat(51)])('refuses the tag %p naming tags', (tag) => {
    expect(() => validTags(['ok', tag])).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'tags' }));
  });

  it('accepts a tag of exactly 50 characters', () => {
    expect(validTags(['X'.repeat(50)])).toEqual(['x'.repeat(50)]);
  });
});

describe('validCategory', () => {
  it('trims and lower-cases', () => {
    expect(validCategory('  Live Music ')).toBe('live music');
  });

  it('reads empty as no category', () => {
    expect(validCategory('')).toBeNull();
    expect(validCategory('   ')).toBeNull();
  });

  it('refuses categories over 50 characters', () => {
    expect(validCategory('c'.repeat(50))).toBe('c'.repeat(50));
    expect(() => validCategory('c'.repeat(51))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'category' }));
  });
});

describe('validCurrency', () => {
  it('defaults to USD and upper-cases a given code', () => {
    expect(DEFAULT_CURRENCY).toBe('USD');
    expect(validCurrency('')).toBe('USD');
    expect(validCurrency('eur')).toBe('EUR');
    expect(validCurrency('JPY')).toBe('JPY');
  });

  it.each(['EURO', 'EU', 'E1R', ' EUR', '   ', '€', 'QQQ'])('refuses %p naming currency', (currency) => {
    expect(() => validCurrency(currency)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'currency' }));
  });
});

describe('assertEndsAfterStart', () => {
  const startsAt = new Date('2027-06-01T19:30:00Z');

  it('accepts an end after the start, or no end', () => {
    expect(() => assertEndsAfterStart({ starts_at: startsAt, ends_at: new Date('2027-06-01T19:30:00.001Z') })).not.toThrow();
    expect(() => assertEndsAfterStart({ starts_at: startsAt, ends_at: null })).not.toThrow();
  });

  it('refuses an end equal to or before the start, naming ends_at', () => {
    for (const endsAt of ['2027-06-01T19:30:00Z', '2027-06-01T19:29:59Z', '2026-01-01T00:00:00Z']) {
      expect(() => assertEndsAfterStart({ starts_at: startsAt, ends_at: new Date(endsAt) })).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'ends_at', message: 'ends_at must be after starts_at.' }),
      );
    }
  });
});
