import { AdmissionTokens } from './admission-tokens';

describe('AdmissionTokens', () => {
  const tokens = new AdmissionTokens('ticketing-test-secret-0123456789');
  const admission = { entryId: 'qen_01JD3WD7G9J1L3N5Q7S9U1W3Y5', eventId: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST' };

  afterEach(() => jest.useRealTimers());

  it('signs an admission as the same token every time, whenever it is read', () => {
    jest.useFakeTimers({ now: new Date('2027-03-01T10:00:00Z') });
    const expiresAt = new Date('2027-03-01T10:10:00Z');
    const first = tokens.sign(admission, expiresAt);
    jest.setSystemTime(new Date('2027-03-01T10:04:59Z'));
    expect(tokens.sign(admission, expiresAt)).toBe(first);
    expect(tokens.verify(first)).toEqual({ ...admission, expiresAt });
  });

  it('refuses an expired or tampered token', () => {
    expect(tokens.verify(tokens.sign(admission, new Date(Date.now() - 1_000)))).toBeNull();
    expect(tokens.verify(`${tokens.sign(admission, new Date(Date.now() + 600_000))}x`)).toBeNull();
  });
});
