import { ApiError } from '@ticketing/errors';
import { assertEditable, assertTransition, EVENT_STATUSES, eventStatus, isEventStatus, isFinal, type EventStatus } from './event-status';

/** Every move that changes the status and is allowed; anything else between two different statuses is refused. */
const ALLOWED: ReadonlyArray<[EventStatus, EventStatus]> = [
  ['draft', 'published'],
  ['draft', 'canceled'],
  ['published', 'canceled'],
  ['published', 'completed'],
];

const allPairs = EVENT_STATUSES.flatMap((from) => EVENT_STATUSES.map((to) => [from, to] as [EventStatus, EventStatus]));
const verdict = (from: EventStatus, to: EventStatus) => (from === to || ALLOWED.some(([a, b]) => a === from && b === to) ? 'allowed' : 'refused');

function thrown(act: () => void): ApiError {
  try {
    act();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('event statuses', () => {
  it('lists the four statuses in lifecycle order', () => {
    expect(EVENT_STATUSES).toEqual(['draft', 'published', 'canceled', 'completed']);
    expect(allPairs).toHaveLength(16);
  });

  it.each(allPairs.map(([from, to]): [EventStatus, EventStatus, string] => [from, to, verdict(from, to)]))('%s → %s is %s', (from, to, expected) => {
    if (expected === 'allowed') {
      expect(() => assertTransition(from, to)).not.toThrow();
    } else {
      const error = thrown(() => assertTransition(from, to));
      expect(error).toMatchObject({ code: 'event_status_transition_invalid', param: 'status', status: 409 });
      expect(error.message).toContain(`from ${from} to ${to}`);
    }
  });

  it('allows exactly the four lifecycle moves plus the four no-ops', () => {
    const allowed = allPairs.filter(([from, to]) => verdict(from, to) === 'allowed');
    expect(allowed).toHaveLength(8);
    for (const status of EVENT_STATUSES) expect(() => assertTransition(status, status)).not.toThrow();
  });

  it('explains refusals: the statuses involved and what the event can still become', () => {
    expect(thrown(() => assertTransition('draft', 'completed')).message).toBe(
      'Cannot move the event from draft to completed: a draft event can only become published or canceled.',
    );
    expect(thrown(() => assertTransition('published', 'draft')).message).toBe(
      'Cannot move the event from published to draft: a published event can only become canceled or completed.',
    );
    expect(thrown(() => assertTransition('canceled', 'published')).message).toBe('Cannot move the event from canceled to published: a canceled event is final.');
    expect(thrown(() => assertTransition('completed', 'canceled')).message).toBe('Cannot move the event from completed to canceled: a completed event is final.');
  });

  it.each([
    ['draft', false],
    ['published', false],
    ['canceled', true],
    ['completed', true],
  ] as const)('isFinal(%s) is %p', (status, expected) => {
    expect(isFinal(status)).toBe(expected);
  });

  it('lets draft and published events change and refuses final ones with event_finalized', () => {
    expect(() => assertEditable('draft')).not.toThrow();
    expect(() => assertEditable('published')).not.toThrow();
    for (const status of ['canceled', 'completed'] as const) {
      const error = thrown(() => assertEditable(status));
      expect(error).toMatchObject({ code: 'event_finalized', param: undefined, status: 409 });
      expect(error.message).toContain(`The event is ${status}`);
    }
  });

  it('accepts the known statuses as they are', () => {
    for (const status of EVENT_STATUSES) {
      expect(isEventStatus(status)).toBe(true);
      expect(eventStatus(status)).toBe(status);
    }
  });

  it.each(['', 'Draft', 'PUBLISHED', 'archived', ' draft', 'cancelled'])('refuses %p as parameter_invalid', (value) => {
    expect(isEventStatus(value)).toBe(false);
    const error = thrown(() => eventStatus(value));
    expect(error).toMatchObject({ code: 'parameter_invalid', param: 'status', status: 400 });
    expect(error.message).toBe('status must be one of draft, published, canceled, completed.');
  });

  it('names the parameter it was given', () => {
    expect(() => eventStatus('archived', 'filter.status')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'filter.status' }));
  });
});
