import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type handleUnaryCall,
  type Metadata,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { setTimeout as delay } from 'node:timers/promises';
import { HealthImplementation } from 'grpc-health-check';
import type { Registry } from 'prom-client';
import { verifiedInternalToken, type InternalPrincipal } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import type { CallContext } from './call-context';
import { CallRunner, type CallOutcome } from './call-runner';
import { readIdempotencyMetadata, replayedMetadata } from './idempotent-call';
import { apiErrorToGrpc, internalErrorToGrpc, type GrpcErrorPayload } from './status-mapping';
import { MAX_CALLS_TOGETHER, togetherOutcomeOf, type CallTogetherMessage } from './together-messages';

/**
 * The largest message a service or client takes, both ways of a call. grpc-js's 4 MB default is
 * below a whole seat map (decision 0014: up to 100,000 seats, about 6 MB as protobuf).
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export const INTERNAL_TOKEN_METADATA = 'x-internal-token';
/** The request a call belongs to, for logs; beside the token so that one token serves many requests. */
export const REQUEST_ID_METADATA = 'x-request-id';
/** The instant (milliseconds since the epoch) the caller stops waiting for the call. */
export const DEADLINE_METADATA = 'x-deadline-at';

function metadataText(call: { metadata: Metadata }, name: string): string {
  const value = call.metadata.get(name)[0];
  return typeof value === 'string' ? value : '';
}

type AsyncUnary<TRequest, TResponse> = (request: TRequest, context: CallContext) => Promise<TResponse>;

/** The RPC names of a generated server interface, without its inherited index signature. */
type RpcNames<TServer> = keyof { [K in keyof TServer as string extends K ? never : K]: TServer[K] };

/** A service implemented with async handlers; each RPC must exist, so a missing one does not compile. */
export type AsyncServiceImplementation<TServer> = {
  [K in RpcNames<TServer>]: TServer[K] extends handleUnaryCall<infer Req, infer Res> ? AsyncUnary<Req, Res> : never;
};

export interface GrpcServerOptions {
  tokenSecret: string;
  logger: Logger;
  /**
   * Errors that mean a dependency did not answer (the service's database: `isDatabaseUnavailable`
   * of libs/db): the call answers UNAVAILABLE, which the gateway makes a 503 the client retries,
   * instead of an internal error.
   */
  unavailableWhen?: (error: unknown) => boolean;
  /** Where the calls are counted: the process's registry, which its ops port serves, unless a test gives its own. */
  metricsRegistry?: Registry;
  /**
   * Test only: holds every successful reply this long after its handler (and its commit)
   * finished, so a crash test can kill the service between the commit and the reply.
   */
  replyDelayMs?: number;
}

/**
 * A call's deadline: the earlier of the caller's instant (`x-deadline-at`) and grpc-js's. grpc-js
 * computes its own from the relative `grpc-timeout` header when it reads the call, so a call that
 * waited unread in a paused or overloaded process started with its whole budget again, and ran
 * after its caller had answered 503 (a fault probe: an issuance sold 2 s after it). The caller's
 * instant does not move; it assumes the hosts' clocks in step, as the system does elsewhere.
 */
function deadlineOf(call: ServerUnaryCall<unknown, unknown>): Date | undefined {
  return earliestDeadline(grpcDeadlineOf(call), callerDeadlineOf(call));
}

/** The earliest of the instants (milliseconds since the epoch) that are known; undefined when none is. */
function earliestDeadline(...instants: Array<number | undefined>): Date | undefined {
  const known = instants.filter((at) => at !== undefined);
  return known.length === 0 ? undefined : new Date(Math.min(...known));
}

/** grpc-js gives a Date, or a number: Infinity when the call has none. */
function grpcDeadlineOf(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(at) ? at : undefined;
}

function callerDeadlineOf(call: ServerUnaryCall<unknown, unknown>): number | undefined {
  const at = Number(metadataText(call, DEADLINE_METADATA));
  return Number.isSafeInteger(at) && at > 0 ? at : undefined;
}

/** The principal the call's gateway-signed token names; undefined when the token is missing or invalid. */
function principalOf(call: ServerUnaryCall<unknown, unknown>, tokenSecret: string): InternalPrincipal | undefined {
  try {
    return verifiedInternalToken(metadataText(call, INTERNAL_TOKEN_METADATA), tokenSecret);
  } catch {
    return undefined;
  }
}

const UNAUTHENTICATED = { code: GrpcStatus.UNAUTHENTICATED, details: 'missing or invalid internal token' };

/** A call's outcome as a call sent alone fails with it. */
function grpcErrorOf(outcome: Exclude<CallOutcome, { kind: 'answered' }>): GrpcErrorPayload | { code: GrpcStatus; details: string } {
  switch (outcome.kind) {
    case 'refused':
      return apiErrorToGrpc(outcome.error);
    case 'unavailable':
      return { code: GrpcStatus.UNAVAILABLE, details: 'a dependency did not answer' };
    case 'late':
      return { code: GrpcStatus.DEADLINE_EXCEEDED, details: 'the call arrived after its deadline and was not run' };
    case 'failed':
      return internalErrorToGrpc();
  }
}

/**
 * Adapts async handlers to grpc-js: every call must carry a valid gateway-signed token and runs
 * as CallRunner runs calls; an ApiError becomes a status with its code in trailers, a dependency
 * that did not answer becomes UNAVAILABLE (the gateway's 503), anything else is logged and hidden.
 *
 * Each RPC named in `together` also takes calls made at the same moment under one token as one
 * call of its `…Together` RPC (decision 0058): every item runs as that RPC's call sent alone
 * would (its own request id, deadline and Idempotency-Key, its own log line), and the answer
 * gives each one's outcome, in order.
 */
export function implementService<TServer extends UntypedServiceImplementation, TTogether extends string = never>(
  handlers: Omit<AsyncServiceImplementation<TServer>, `${TTogether}Together`>,
  options: GrpcServerOptions,
  together: readonly TTogether[] = [],
): TServer {
  const adapted: Record<string, handleUnaryCall<unknown, unknown>> = {};
  const runner = new CallRunner(options);
  const handlerOf = (name: string) => (handlers as Record<string, AsyncUnary<unknown, unknown>>)[name]!;
  for (const name of Object.keys(handlers)) {
    const handler = handlerOf(name);
    adapted[name] = (call, callback) => {
      const principal = principalOf(call, options.tokenSecret);
      if (!principal) return callback(UNAUTHENTICATED);
      const idempotency = readIdempotencyMetadata(call.metadata);
      void runner
        .run({ rpc: name, path: call.getPath(), principal, requestId: metadataText(call, REQUEST_ID_METADATA), deadline: deadlineOf(call), idempotency, request: call.request }, handler)
        .then(async (outcome) => {
          if (outcome.kind !== 'answered') return callback(grpcErrorOf(outcome));
          if (options.replyDelayMs) await delay(options.replyDelayMs);
          if (outcome.replayed) call.sendMetadata(replayedMetadata());
          callback(null, outcome.response);
        });
    };
  }
  for (const name of together) {
    const handler = handlerOf(name);
    adapted[`${name}Together`] = (call, callback) => {
      const principal = principalOf(call, options.tokenSecret);
      if (!principal) return callback(UNAUTHENTICATED);
      const { calls } = call.request as { calls: Array<CallTogetherMessage<unknown>> };
      if (calls.length > MAX_CALLS_TOGETHER) {
        return callback(apiErrorToGrpc(new ApiError('parameter_invalid', `At most ${MAX_CALLS_TOGETHER} calls go together; this one carried ${calls.length}.`, { param: 'calls' })));
      }
      // The path of the RPC the items are calls of, as their Idempotency-Keys are scoped when sent alone.
      const path = call.getPath().replace(/Together$/, '');
      // An item's own instant (0 for none) can only shorten the whole call's deadline.
      const wholeCallDeadlines = [grpcDeadlineOf(call), callerDeadlineOf(call)];
      void Promise.all(
        calls.map(({ metadata, request }) =>
          runner.run(
            {
              rpc: name,
              path,
              principal,
              requestId: metadata?.request_id ?? '',
              deadline: earliestDeadline(...wholeCallDeadlines, metadata?.deadline_at_ms || undefined),
              idempotency: metadata?.idempotency_key ? { key: metadata.idempotency_key, fingerprint: metadata.idempotency_fingerprint } : undefined,
              request,
            },
            handler,
          ),
        ),
      ).then(async (outcomes) => {
        if (options.replyDelayMs) await delay(options.replyDelayMs);
        callback(null, { outcomes: outcomes.map(togetherOutcomeOf) });
      });
    };
  }
  return adapted as TServer;
}

export interface RunningGrpcServer {
  server: Server;
  health: HealthImplementation;
  port: number;
  /** Stops accepting calls and waits for in-flight ones, bounded. */
  shutdown(timeoutMs?: number): Promise<void>;
}

/** Starts a server with the standard grpc.health.v1 service (for Kubernetes gRPC probes). */
export async function startGrpcServer(
  services: Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }>,
  port: number,
): Promise<RunningGrpcServer> {
  const server = new Server({ 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES });
  const health = new HealthImplementation({ '': 'SERVING' });
  health.addToServer(server);
  for (const { definition, implementation } of services) server.addService(definition, implementation);
  const boundPort = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`0.0.0.0:${port}`, ServerCredentials.createInsecure(), (error, actualPort) => (error ? reject(error) : resolve(actualPort)));
  });
  return {
    server,
    health,
    port: boundPort,
    shutdown: (timeoutMs = 10_000) =>
      new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
