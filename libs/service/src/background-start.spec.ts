import pino from 'pino';
import { startInBackground } from './background-start';

const logger = pino({ level: 'silent' });
const QUICK_RETRY = { initialMs: 5, maxMs: 10 };

/** Resolves once `condition` holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('startInBackground', () => {
  it('tries a failed start again until it starts, and stops what started', async () => {
    let attempts = 0;
    const stopped: string[] = [];
    const part = startInBackground(
      'the consumer',
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error('broker unreachable');
        return 'consumer';
      },
      async (started) => void stopped.push(started),
      logger,
      QUICK_RETRY,
    );

    await until(() => attempts === 3);
    await part.stop();

    expect(stopped).toEqual(['consumer']);
  });

  it('stops trying when the service stops before the part could start', async () => {
    let attempts = 0;
    const stopStarted = jest.fn(async () => undefined);
    const part = startInBackground(
      'the relay',
      async () => {
        attempts += 1;
        throw new Error('broker unreachable');
      },
      stopStarted,
      logger,
      { initialMs: 60_000, maxMs: 60_000 },
    );
    await until(() => attempts === 1);

    await part.stop();

    expect(attempts).toBe(1);
    expect(stopStarted).not.toHaveBeenCalled();
  });

  it('stops a part that finishes starting after the service began to stop', async () => {
    let finishStart: (value: string) => void = () => undefined;
    const stopped: string[] = [];
    const part = startInBackground('the consumer', () => new Promise<string>((resolve) => (finishStart = resolve)), async (started) => void stopped.push(started), logger, QUICK_RETRY);

    const stopping = part.stop();
    finishStart('consumer');
    await stopping;

    expect(stopped).toEqual(['consumer']);
  });
});
