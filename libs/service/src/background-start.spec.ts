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
      { retry: QUICK_RETRY },
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
      { retry: { initialMs: 60_000, maxMs: 60_000 } },
    );
    await until(() => attempts === 1);

    await part.stop();

    expect(attempts).toBe(1);
    expect(stopStarted).not.toHaveBeenCalled();
  });

  it('stops a part that finishes starting after the service began to stop', async () => {
    let finishStart: (value: string) => void = () => undefined;
    const stopped: string[] = [];
    const part = startInBackground('the consumer', () => new Promise<string>((resolve) => (finishStart = resolve)), async (started) => void stopped.push(started), logger, { retry: QUICK_RETRY });

    const stopping = part.stop();
    finishStart('consumer');
    await stopping;

    expect(stopped).toEqual(['consumer']);
  });

  it('stops a part that stopped by itself and starts it again, until the service stops', async () => {
    const parts: Array<{ name: string; stopByItself: (error: Error) => void; stoppedByItself: Promise<Error> }> = [];
    const stopped: string[] = [];
    const part = startInBackground(
      'the consumer',
      async () => {
        let stopByItself: (error: Error) => void = () => undefined;
        const stoppedByItself = new Promise<Error>((resolve) => (stopByItself = resolve));
        const started = { name: `consumer ${parts.length + 1}`, stopByItself, stoppedByItself };
        parts.push(started);
        return started;
      },
      async (started) => void stopped.push(started.name),
      logger,
      { retry: QUICK_RETRY, stoppedByItself: (started) => started.stoppedByItself },
    );
    await until(() => parts.length === 1);

    parts[0]!.stopByItself(new Error('The group coordinator is not aware of this member'));
    await until(() => parts.length === 2);
    expect(stopped).toEqual(['consumer 1']);

    await part.stop();
    expect(stopped).toEqual(['consumer 1', 'consumer 2']);
    expect(parts).toHaveLength(2);
  });
});
