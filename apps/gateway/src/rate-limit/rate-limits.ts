import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { CachedKey } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { answeredWithin, type RedisClient } from '@ticketing/redis';
import { RevokedApiKeyError } from '../auth/key-verifier';
import { requestState } from '../http/request-state';
import type { Route } from '../routes/route';
import { bucketOf, type Bucket, type Budget, type KeyBucket, type RateLimitSettings } from './budgets';
import { clientAddress } from './client-address';
import type { LimiterMetrics } from './limiter-metrics';
import { secondsUntilReset, setRateLimitHeaders } from './rate-limit-headers';

const REFUSALS: Record<Bucket, string> = {
  account: 'Too many requests for this account',
  scanning: 'Too many scanning requests for this account',
  key_minting: 'Too many API keys minted for this account',
  public: 'Too many requests from this address',
  failed_authentication: 'Too many requests with an invalid API key from this address',
};

function rateLimited(bucket: Bucket, state: RateLimiterRes): ApiError {
  return new ApiError('rate_limited', `${REFUSALS[bucket]}; retry after ${secondsUntilReset(state)} seconds (see the Retry-After header).`);
}

function refuse(res: Response, bucket: Bucket, limit: number, state: RateLimiterRes): never {
  setRateLimitHeaders(res, limit, state);
  res.setHeader('Retry-After', secondsUntilReset(state));
  throw rateLimited(bucket, state);
}

/**
 * How long a count may hold its request: past it the request goes on uncounted, as when Redis
 * is down (decisions 0021, 0043). Redis answers in about a millisecond; the margin is for this
 * process's own delays under load, during which the counts should go on.
 */
const COUNT_TIMEOUT_MS = 1_000;

/** Who a keyed bucket counts: the account in the key's mode, or (minting) the account. */
function keySubject(bucket: KeyBucket, key: CachedKey): string {
  return bucket === 'key_minting' ? key.account_id : `${key.account_id}:${key.mode}`;
}

/**
 * The gateway's rate limits (docs/decisions/0021): fixed windows counted in Redis by
 * rate-limiter-flexible, so every replica sees the same counts. Each piece is a middleware the
 * route-table router places in the pipeline. When Redis fails, or does not answer within
 * COUNT_TIMEOUT_MS, the limiter fails open: the request goes on uncounted and LimiterMetrics
 * reports it.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(
    private readonly redis: RedisClient,
    private readonly settings: RateLimitSettings,
    private readonly metrics: LimiterMetrics,
  ) {}

  /**
   * Public routes, the explorer's files, and whatever no route serves (a 404, a URL that is not
   * valid percent-encoding): per client address, once per request however many of them it passes.
   */
  readonly perClient: RequestHandler = async (req, res, next) => {
    await this.countPerClient(req, res);
    next();
  };

  async countPerClient(req: Request, res: Response): Promise<void> {
    const state = requestState(res);
    if (state.countedPerClient) return;
    state.countedPerClient = true;
    await this.admit(res, 'public', this.settings.budgets.public, clientAddress(req));
  }

  /**
   * Before a key is looked up in identity (a key this gateway has not verified yet): an address
   * past its failed-authentication budget gets 429. Keys already verified skip it, so the hot
   * path pays no Redis round trip for it; guesses are always lookups.
   */
  async refuseIfFailing(req: Request, res: Response): Promise<void> {
    const budget = this.settings.budgets.failed_authentication;
    let state: RateLimiterRes | null;
    try {
      state = await answeredWithin(this.limiter('failed_authentication', budget).get(clientAddress(req)), COUNT_TIMEOUT_MS);
    } catch (error) {
      this.metrics.outage('failed_authentication', error);
      return;
    }
    if (state !== null && state.remainingPoints === 0) {
      this.metrics.refusal('failed_authentication');
      refuse(res, 'failed_authentication', budget.points, state);
    }
  }

  /**
   * Right after authentication: an invalid key counts against its address's failed-authentication
   * budget (a revoked one does not: it is no guess), and a request without a key against its
   * address's public budget, as any request no key vouches for; the 401 then goes on with that
   * budget's headers.
   */
  readonly countFailedAuthentication: ErrorRequestHandler = async (error: unknown, req: Request, res, next) => {
    if (error instanceof ApiError && error.code === 'missing_api_key') {
      await this.countPerClient(req, res).then(() => next(error), next);
      return;
    }
    if (error instanceof ApiError && error.code === 'invalid_api_key' && !(error instanceof RevokedApiKeyError)) {
      const budget = this.settings.budgets.failed_authentication;
      const penalty = this.limiter('failed_authentication', budget).penalty(clientAddress(req));
      const state = await answeredWithin(penalty, COUNT_TIMEOUT_MS).catch((storeError: unknown) => {
        this.metrics.outage('failed_authentication', storeError);
        return null;
      });
      if (state) setRateLimitHeaders(res, budget.points, state);
    }
    next(error);
  };

  /** After authentication: the key's budget for this route (its account's own limit on the general one). */
  forKey(route: Route): RequestHandler {
    const bucket = bucketOf(route);
    return async (_req, res, next) => {
      const key = requestState(res).key!;
      await this.admit(res, bucket, this.keyBudget(bucket, key), keySubject(bucket, key));
      next();
    };
  }

  private keyBudget(bucket: KeyBucket, key: CachedKey): Budget {
    const budget = this.settings.budgets[bucket];
    return bucket === 'account' && key.rate_limit_per_second !== undefined ? { ...budget, points: key.rate_limit_per_second } : budget;
  }

  /** Counts one request; over the budget it throws 429, and every outcome but an outage sets the headers. */
  private async admit(res: Response, bucket: Bucket, budget: Budget, subject: string): Promise<void> {
    let state: RateLimiterRes;
    try {
      state = await answeredWithin(this.limiter(bucket, budget).consume(subject), COUNT_TIMEOUT_MS);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        this.metrics.outage(bucket, rejection);
        return;
      }
      this.metrics.refusal(bucket);
      refuse(res, bucket, budget.points, rejection);
    }
    setRateLimitHeaders(res, budget.points, state);
  }

  /**
   * One limiter per bucket and limit. Limiters of one bucket share its Redis keys, so an
   * account whose own limit changes keeps its count; there are as many as distinct overrides.
   */
  private limiter(bucket: Bucket, budget: Budget): RateLimiterRedis {
    const id = `${bucket}:${budget.points}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        // node-redis v4+ (its option name); rejectIfRedisNotReady fails at once while the
        // client reconnects, instead of queueing the command until Redis is back.
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: `${this.settings.redisPrefix}:${bucket}`,
        points: budget.points,
        duration: budget.windowSeconds,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
