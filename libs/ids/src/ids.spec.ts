import { idTime, isId, newId } from './index';

describe('newId', () => {
  it('prefixes the type and sorts by creation order', () => {
    const ids = Array.from({ length: 500 }, () => newId('evt'));
    expect(ids.every((id) => id.startsWith('evt_'))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws fresh randomness for every new millisecond, across refills of its random pool', () => {
    let now = 1_800_000_000_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => (now += 1));
    try {
      const randomParts = Array.from({ length: 600 }, () => newId('req').slice(-16));
      expect(new Set(randomParts).size).toBe(randomParts.length);
    } finally {
      clock.mockRestore();
    }
  });

  it('recognises its own ids and rejects other shapes', () => {
    expect(isId(newId('key'), 'key')).toBe(true);
    expect(isId(newId('key'), 'evt')).toBe(false);
    expect(isId('evt_123', 'evt')).toBe(false);
    expect(isId('evt_01ARZ3NDEKTSV4RRFFQ69G5FAVX', 'evt')).toBe(false);
  });

  it('tells when an id was made, to the millisecond', () => {
    const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2027, 2, 1, 12, 30, 15, 123));
    try {
      expect(idTime(newId('tch')).toISOString()).toBe('2027-03-01T12:30:15.123Z');
    } finally {
      clock.mockRestore();
    }
    expect(idTime('evt_01ARZ3NDEKTSV4RRFFQ69G5FAV').toISOString()).toBe('2016-07-30T23:54:10.259Z');
  });
});
