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
import { verifiedInternalToken } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { withRequestId, type Logger } from '@ticketing/observability';
import { CallContext } from './call-context';
import { CallMetrics } from './call-metrics';
import { IdempotentCall, readIdempotencyMetadata, replayedMetadata, runIdempotentCall } from './idempotent-call';
import { apiErrorToGrpc, internalErrorToGrpc } from './status-mapping';

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
  const deadlines = [grpcDeadlineOf(call), callerDeadlineOf(call)].filter((deadline) => deadline !== undefined);
  return deadlines.length === 0 ? undefined : new Date(Math.min(...deadlines));
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

/** The caller has given up on a call whose deadline passed: running it could only surprise them. */
function deadlinePassed(deadline: Date | undefined): boolean {
  return deadline !== undefined && deadline.getTime() <= Date.now();
}

/** A call made under an Idempotency-Key, scoped by the token's tenant; calls without a tenant write nothing tenant-owned. */
function idempotentCallOf(call: ServerUnaryCall<unknown, unknown>, context: CallContext): IdempotentCall | undefined {
  const idempotency = readIdempotencyMetadata(call.metadata);
  if (!idempotency || !context.claims.tenant) return undefined;
  return new IdempotentCall(context.tenant, call.getPath(), idempotency.key, idempotency.fingerprint, deadlineOf(call));
}

/**
 * Adapts async handlers to grpc-js: every call must carry a valid gateway-signed token, a call
 * past its deadline is not run, a call with an Idempotency-Key runs as an IdempotentCall, an
 * ApiError becomes a status with its code in trailers, a dependency that did not answer becomes
 * UNAVAILABLE (the gateway's 503), anything else is logged and hidden.
 * Handlers run in their request id's scope (what they publish carries it), and each call ends
 * with one log line naming its request id, so a search for the id finds the service's part, and
 * is counted and timed in the process's metrics (CallMetrics).
 */
export function implementService<TServer extends UntypedServiceImplementation>(
  handlers: AsyncServiceImplementation<TServer>,
  options: GrpcServerOptions,
): TServer {
  const adapted: Record<string, handleUnaryCall<unknown, unknown>> = {};
  const metrics = new CallMetrics(options.metricsRegistry);
  for (const [name, handler] of Object.entries(handlers as Record<string, AsyncUnary<unknown, unknown>>)) {
    adapted[name] = (call, callback) => {
      let context: CallContext;
      try {
        const principal = verifiedInternalToken(metadataText(call, INTERNAL_TOKEN_METADATA), options.tokenSecret);
        context = new CallContext({ ...principal, request_id: metadataText(call, REQUEST_ID_METADATA) });
      } catch {
        callback({ code: GrpcStatus.UNAUTHENTICATED, details: 'missing or invalid internal token' });
        return;
      }
      if (deadlinePassed(deadlineOf(call))) {
        callback({ code: GrpcStatus.DEADLINE_EXCEEDED, details: 'the call arrived after its deadline and was not run' });
        return;
      }
      const started = performance.now();
      const logCall = (outcome: string) => {
        const milliseconds = performance.now() - started;
        metrics.observe(name, outcome, milliseconds / 1000);
        options.logger.info(
          { request_id: context.requestId, rpc: name, account_id: context.claims.tenant?.account_id, mode: context.claims.tenant?.mode, outcome, duration_ms: Math.round(milliseconds * 10) / 10 },
          'call',
        );
      };
      const idempotentCall = idempotentCallOf(call, context);
      const run = () => withRequestId(context.requestId, () => handler(call.request, context));
      (idempotentCall ? runIdempotentCall(idempotentCall, run) : run()).then(
        async (response) => {
          if (options.replyDelayMs) await delay(options.replyDelayMs);
          if (idempotentCall?.replayed) call.sendMetadata(replayedMetadata());
          logCall(idempotentCall?.replayed ? 'replayed' : 'ok');
          callback(null, response);
        },
        (error: unknown) => {
          if (error instanceof ApiError) {
            logCall(error.code);
            callback(apiErrorToGrpc(error));
            return;
          }
          if (options.unavailableWhen?.(error)) {
            logCall('unavailable');
            options.logger.warn({ err: error, request_id: context.requestId, rpc: name }, 'a dependency did not answer; the caller is told to retry');
            callback({ code: GrpcStatus.UNAVAILABLE, details: 'a dependency did not answer' });
            return;
          }
          logCall('internal_error');
          options.logger.error({ err: error, request_id: context.requestId, rpc: name }, 'unhandled error in gRPC handler');
          callback(internalErrorToGrpc());
        },
      );
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
