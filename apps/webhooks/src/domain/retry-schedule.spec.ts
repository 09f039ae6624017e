import { DEFAULT_RETRY_DELAYS_MS, RetrySchedule } from './retry-schedule';

const failedAt = new Date('2027-01-01T00:00:00.000Z');
const after = (schedule: RetrySchedule, attempts: number) => (schedule.nextAttemptAt(attempts, failedAt)?.getTime() ?? NaN) - failedAt.getTime();

describe('RetrySchedule', () => {
  it('follows the delays in order and ends when they are spent', () => {
    const schedule = new RetrySchedule([100, 1000, 10_000], () => 0.5);
    expect([1, 2, 3].map((attempts) => after(schedule, attempts))).toEqual([100, 1000, 10_000]);
    expect(schedule.nextAttemptAt(4, failedAt)).toBeNull();
  });

  it('moves each delay by at most a fifth either way', () => {
    expect(after(new RetrySchedule([1000], () => 0), 1)).toBe(800);
    expect(after(new RetrySchedule([1000], () => 0.999999), 1)).toBe(1200);
  });

  it('spreads the default schedule over about a day', () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3600_000).toBeGreaterThan(24);
    expect(total / 3600_000).toBeLessThan(30);
    // Eight attempts in all: the first, then one after each delay.
    expect(DEFAULT_RETRY_DELAYS_MS).toHaveLength(7);
    expect(new RetrySchedule(DEFAULT_RETRY_DELAYS_MS, () => 0.5).nextAttemptAt(8, failedAt)).toBeNull();
  });
});
