import { createLogger } from '@ticketing/observability';
import { connectRedis } from '@ticketing/redis';
import { lateForwarder } from '@ticketing/testing';
import { KeyCache } from '../src/cache/key-cache';
import type { ApiKeyRecord } from '../src/domain/api-key';

describe('the key cache while Redis is unreachable', () => {
  it('refuses a revocation tombstone with 503, which the caller retries, instead of a 500', async () => {
    const redisDown = await lateForwarder({ host: '127.0.0.1', port: 6379 });
    const redis = await connectRedis(`redis://127.0.0.1:${redisDown.port}`, createLogger('identity-test', 'silent'), { inBackground: true });
    try {
      const revoked = { key_hash: 'a'.repeat(64) } as ApiKeyRecord;
      await expect(new KeyCache(redis).writeRevoked(revoked)).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
      await expect(new KeyCache(redis).forgetAccountKeys(['b'.repeat(64)])).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
    } finally {
      redis.destroy();
      await redisDown.close();
    }
  });
});
