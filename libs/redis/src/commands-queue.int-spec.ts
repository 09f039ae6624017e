import pino from 'pino';
import { silenceableRedis } from '@ticketing/testing';
import { connectRedis } from './index';

describe('a client of a Redis that answers nothing (real Redis behind a proxy that holds its answers)', () => {
  it('keeps at most 10,000 commands waiting, then refuses new ones at once instead of queueing them without end', async () => {
    const proxy = await silenceableRedis();
    const client = await connectRedis(proxy.url, pino({ level: 'silent' }));
    try {
      proxy.silence();
      const waiting = Array.from({ length: 10_000 }, () => client.ping());
      await expect(client.ping()).rejects.toThrow('The queue is full');
      proxy.resume();
      expect(new Set(await Promise.all(waiting))).toEqual(new Set(['PONG']));
    } finally {
      client.destroy();
      await proxy.close();
    }
  }, 15_000);
});
