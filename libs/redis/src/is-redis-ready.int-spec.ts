import { createClient } from 'redis';
import { isRedisReady } from './index';

describe('isRedisReady', () => {
  it('answers false at once for a client that is not connected, without sending a PING to its offline queue', async () => {
    const ping = jest.fn();
    await expect(isRedisReady({ isReady: false, ping })).resolves.toBe(false);
    expect(ping).not.toHaveBeenCalled();
  });

  it('answers true for a connected client whose PING is answered (real Redis)', async () => {
    const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    await client.connect();
    try {
      await expect(isRedisReady(client)).resolves.toBe(true);
    } finally {
      client.destroy();
    }
  });
});
