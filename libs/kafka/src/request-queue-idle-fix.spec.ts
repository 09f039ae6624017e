import RequestQueue from 'kafkajs/src/network/requestQueue';
// The patch applies when the client module loads, as in every service.
import './client';

type Queue = { pending: unknown[]; throttledUntil: number; throttleCheckTimeoutId: unknown; scheduleCheckPendingRequests(): void };

describe('kafkajs request queue, patched for idle connections', () => {
  const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const newQueue = () =>
    new (RequestQueue as unknown as new (options: object) => Queue)({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      enforceRequestTimeout: true,
      clientId: 'test',
      broker: 'localhost:9092',
      logger: { namespace: () => logger, ...logger },
    });

  afterEach(() => jest.useRealTimers());

  it('arms no timer while no request waits, even when the broker throttled it', () => {
    const queue = newQueue();
    queue.scheduleCheckPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
    queue.throttledUntil = Date.now() + 1_000;
    queue.scheduleCheckPendingRequests();
    expect(queue.throttleCheckTimeoutId).toBeNull();
  });

  it('checks waiting requests when the throttle ends, or after 10 ms without one', () => {
    jest.useFakeTimers();
    const checkTimes: number[] = [];
    const queue = Object.assign(newQueue(), { checkPendingRequests: () => checkTimes.push(Date.now()) });
    queue.pending.push({});
    const start = Date.now();
    queue.scheduleCheckPendingRequests();
    jest.advanceTimersByTime(10);
    queue.throttledUntil = Date.now() + 500;
    queue.scheduleCheckPendingRequests();
    jest.advanceTimersByTime(500);
    expect(checkTimes.map((time) => time - start)).toEqual([10, 510]);
  });
});
