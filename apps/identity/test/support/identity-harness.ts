import path from 'node:path';
import { credentials, Metadata } from '@grpc/grpc-js';
import type { InternalClaims } from '@ticketing/auth';
import { identityV1 } from '@ticketing/contracts';
import { callUnary, implementService, INTERNAL_TOKEN_METADATA, startGrpcServer, type RunningGrpcServer } from '@ticketing/grpc';
import { createLogger } from '@ticketing/observability';
import { connectRedis, type RedisClient } from '@ticketing/redis';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { KeyCache } from '../../src/cache/key-cache';
import { createIdentityPrisma, type PrismaClient } from '../../src/db';
import type { ApiKeyRecord } from '../../src/domain/api-key';
import { identityGrpcHandlers } from '../../src/grpc/identity.grpc';
import { ActivateLiveModeUseCase } from '../../src/usecases/activate-live-mode/activate-live-mode.usecase';
import { CreateAccountUseCase } from '../../src/usecases/create-account/create-account.usecase';

export const tokenSecret = 'identity-test-secret-0123456789';
const callOptions = { tokenSecret, deadlineMs: 10_000 };

/** A key the tests act with: its record, its plaintext and the claims the gateway would sign. */
export interface TestKey {
  record: ApiKeyRecord | identityV1.ApiKey;
  secret: string;
  claims: InternalClaims;
}

export interface TestAccount {
  id: string;
  testRoot: TestKey;
  /** Present when the account was created with live mode activated. */
  liveRoot?: TestKey;
}

function tokenMetadata(token: string | undefined): Metadata {
  const metadata = new Metadata();
  if (token !== undefined) metadata.set(INTERNAL_TOKEN_METADATA, token);
  return metadata;
}

/** The claims the gateway signs for a request made with this key. */
export function claimsFor(accountId: string, key: { id: string; prefix: string; mode: string; kind: string; scopes: string[] }): InternalClaims {
  return {
    request_id: 'req_identity_test',
    tenant: { account_id: accountId, mode: key.mode as 'test' | 'live' },
    key: { id: key.id, prefix: key.prefix, kind: key.kind as 'secret' | 'publishable', scopes: key.scopes },
  };
}

/**
 * Identity as it runs in production, in process: a fresh migrated database for the test file,
 * real Redis, the real gRPC server with token checking, and a real client.
 */
export class IdentityHarness {
  private constructor(
    readonly database: TestDatabase,
    readonly prisma: PrismaClient,
    readonly redis: RedisClient,
    private readonly server: RunningGrpcServer,
    readonly client: identityV1.IdentityServiceClient,
  ) {}

  static async start(): Promise<IdentityHarness> {
    const logger = createLogger('identity-test', 'silent');
    const database = await createTestDatabase('identity', path.join(__dirname, '../../prisma/migrations'));
    const prisma = createIdentityPrisma(database.url);
    const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', logger);
    const implementation = implementService<identityV1.IdentityServiceServer>(identityGrpcHandlers(prisma, new KeyCache(redis)), { tokenSecret, logger });
    const server = await startGrpcServer([{ definition: identityV1.IdentityServiceService, implementation }], 0);
    const client = new identityV1.IdentityServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    return new IdentityHarness(database, prisma, redis, server, client);
  }

  async stop(): Promise<void> {
    this.client.close();
    await this.server.shutdown();
    await this.redis.close();
    await this.prisma.$disconnect();
    await this.database.drop();
  }

  /** A fresh account through the operators' use cases, optionally with live mode activated. */
  async createAccount(options: { live?: boolean } = {}): Promise<TestAccount> {
    const created = await new CreateAccountUseCase(this.prisma).execute({ name: 'Test account' });
    const account: TestAccount = { id: created.account.id, testRoot: this.toTestKey(created.account.id, created.key, created.secret) };
    if (options.live) {
      const live = await new ActivateLiveModeUseCase(this.prisma, new KeyCache(this.redis)).execute({ accountId: created.account.id });
      account.liveRoot = this.toTestKey(created.account.id, live.key, live.secret);
    }
    return account;
  }

  private toTestKey(accountId: string, record: ApiKeyRecord, secret: string): TestKey {
    return { record, secret, claims: claimsFor(accountId, record) };
  }

  verifyApiKey(request: identityV1.VerifyApiKeyRequest, claims: InternalClaims = { request_id: 'req_verify' }) {
    return callUnary(this.client.verifyApiKey.bind(this.client), request, claims, callOptions);
  }

  createApiKey(claims: InternalClaims, request: Partial<identityV1.CreateApiKeyRequest>) {
    return callUnary(this.client.createApiKey.bind(this.client), { label: '', scopes: [], mode: '', kind: '', ...request }, claims, callOptions);
  }

  /** Mints through the API and answers the new key with the claims to act with it. */
  async mint(accountId: string, as: TestKey, request: Partial<identityV1.CreateApiKeyRequest>): Promise<TestKey> {
    const created = await this.createApiKey(as.claims, { label: 'minted', ...request });
    return { record: created.key!, secret: created.secret, claims: claimsFor(accountId, created.key!) };
  }

  listApiKeys(claims: InternalClaims, page?: { limit?: number; starting_after?: string }) {
    return callUnary(this.client.listApiKeys.bind(this.client), { page: page && { limit: page.limit ?? 0, starting_after: page.starting_after ?? '' } }, claims, callOptions);
  }

  revokeApiKey(claims: InternalClaims, prefix: string) {
    return callUnary(this.client.revokeApiKey.bind(this.client), { prefix }, claims, callOptions);
  }

  /** Raw calls with hand-made metadata, for token checks the typed helper cannot express. */
  rawListApiKeys(token: string | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => this.client.listApiKeys({ page: undefined }, tokenMetadata(token), (error, response) => (error ? reject(error) : resolve(response))));
  }

  rawVerifyApiKey(keyHash: string, token: string | undefined): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.client.verifyApiKey({ key_hash: keyHash }, tokenMetadata(token), (error, response) => (error ? reject(error) : resolve(response))),
    );
  }
}
