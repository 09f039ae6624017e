import { setImmediate as afterIo } from 'node:timers/promises';
import pino from 'pino';
import { silenceableRedis } from '@ticketing/testing';
import { answeredWithin, connectRedis, type RedisClient } from './index';

/** Keeps this process from its event loop for `ms`, as a burst of work under a rush does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('answeredWithin (real Redis)', () => {
  let client: RedisClient;
  beforeAll(async () => {
    client = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', pino({ level: 'silent' }));
  });
  afterAll(() => client.close());

  it('takes an answer that arrived while this process was busy past the bound: the delay was its own, not Redis’s', async () => {
    const answer = answeredWithin(client.ping(), 50);
    await afterIo(); // the command is written
    busyFor(150);
    await expect(answer).resolves.toBe('PONG');
  });

  it('gives up on a Redis that takes the command and answers nothing', async () => {
    const proxy = await silenceableRedis();
    const silenced = await connectRedis(proxy.url, pino({ level: 'silent' }));
    try {
      proxy.silence();
      await expect(answeredWithin(silenced.ping(), 50)).rejects.toThrow('Redis did not answer within 50 ms');
    } finally {
      proxy.resume();
      await silenced.close();
      await proxy.close();
    }
  });
});
