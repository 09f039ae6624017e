import { Metadata, status as GrpcStatus, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import pino from 'pino';
import { Registry } from 'prom-client';
import { ApiError } from '@ticketing/errors';
import { currentRequestId } from '@ticketing/observability';
import { signInternalToken } from '@ticketing/auth';
import type { CallContext } from './call-context';
import { currentIdempotentCall, isReplayed, writeIdempotencyMetadata } from './idempotent-call';
import { DEADLINE_METADATA, implementService, INTERNAL_TOKEN_METADATA, REQUEST_ID_METADATA, type GrpcServerOptions } from './server';

const tokenSecret = 'a-test-secret-of-enough-length';
const options = { tokenSecret, logger: pino({ level: 'silent' }) };

function unaryCall(deadline: Date | number, extra: (metadata: Metadata) => void = () => undefined): ServerUnaryCall<unknown, unknown> {
  const metadata = new Metadata();
  metadata.set(INTERNAL_TOKEN_METADATA, signInternalToken({ tenant: { account_id: 'acct_1', mode: 'test' } }, tokenSecret));
  metadata.set(REQUEST_ID_METADATA, 'req_1');
  extra(metadata);
  return { metadata, request: {}, getDeadline: () => deadline, getPath: () => '/test.v1.Things/CreateThing', sendMetadata: jest.fn() } as unknown as ServerUnaryCall<unknown, unknown>;
}

function invoke(handler: () => Promise<unknown>, call: ServerUnaryCall<unknown, unknown>): Promise<Parameters<sendUnaryData<unknown>>> {
  const service = implementService<{ createThing: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void }>({ createThing: handler }, options);
  return new Promise((resolve) => service.createThing(call, (...args) => resolve(args)));
}

describe('implementService', () => {
  it('does not run a call whose deadline has already passed', async () => {
    const handler = jest.fn(async () => ({}));
    const [error] = await invoke(handler, unaryCall(new Date(Date.now() - 1)));
    expect(error).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
    expect(handler).not.toHaveBeenCalled();
  });

  it('does not run a call whose caller’s deadline has passed, though grpc-js, counting from when it read the call, gives it time', async () => {
    const handler = jest.fn(async () => ({}));
    // As a call that waited unread in a paused process: grpc-js restarts its relative timeout on reading it.
    const waitedUnread = unaryCall(new Date(Date.now() + 10_000), (metadata) => metadata.set(DEADLINE_METADATA, String(Date.now() - 2_000)));
    const [error] = await invoke(handler, waitedUnread);
    expect(error).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
    expect(handler).not.toHaveBeenCalled();
    // The caller's instant alone, and either one in the future, let it run.
    expect(await invoke(async () => ({ ok: 1 }), unaryCall(Infinity, (metadata) => metadata.set(DEADLINE_METADATA, String(Date.now() + 5_000))))).toEqual([null, { ok: 1 }]);
    const [stillRefused] = await invoke(handler, unaryCall(Infinity, (metadata) => metadata.set(DEADLINE_METADATA, String(Date.now() - 1))));
    expect(stillRefused).toMatchObject({ code: GrpcStatus.DEADLINE_EXCEEDED });
  });

  it('answers UNAVAILABLE for a failure its service names a dependency not answering, and INTERNAL for any other', async () => {
    const service = implementService<{ createThing: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void }>(
      {
        createThing: async () => {
          throw new Error('Connection terminated unexpectedly');
        },
      },
      { ...options, unavailableWhen: (error) => error instanceof Error && error.message === 'Connection terminated unexpectedly' },
    );
    const [unavailable] = await new Promise<Parameters<sendUnaryData<unknown>>>((resolve) => service.createThing(unaryCall(Infinity), (...args) => resolve(args)));
    expect(unavailable).toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    const [internal] = await invoke(async () => {
      throw new Error('Cannot read properties of undefined');
    }, unaryCall(Infinity));
    expect(internal).toMatchObject({ code: GrpcStatus.INTERNAL });
  });

  it('runs a call within its deadline, or without one', async () => {
    expect(await invoke(async () => ({ ok: 1 }), unaryCall(new Date(Date.now() + 5_000)))).toEqual([null, { ok: 1 }]);
    expect(await invoke(async () => ({ ok: 2 }), unaryCall(Infinity))).toEqual([null, { ok: 2 }]);
  });

  it('runs a call with an Idempotency-Key as an idempotent call of its tenant and RPC, and says when it replayed', async () => {
    const call = unaryCall(Infinity, (metadata) => writeIdempotencyMetadata(metadata, { key: 'key-1', fingerprint: 'print' }));
    const seen = await invoke(async () => {
      const current = currentIdempotentCall()!;
      current.markReplayed();
      return { tenant: current.tenant, operation: current.operation, key: current.key, fingerprint: current.fingerprint };
    }, call);
    expect(seen).toEqual([null, { tenant: { accountId: 'acct_1', mode: 'test' }, operation: '/test.v1.Things/CreateThing', key: 'key-1', fingerprint: 'print' }]);
    const [sent] = (call.sendMetadata as jest.Mock).mock.calls[0] as [Metadata];
    expect(isReplayed(sent)).toBe(true);
  });

  it('gives the handler the token\'s tenant and the request id sent beside the token', async () => {
    const seen = await invoke(async (...args: unknown[]) => {
      const context = args[1] as CallContext;
      return { tenant: context.tenant, requestId: context.requestId };
    }, unaryCall(Infinity));
    expect(seen).toEqual([null, { tenant: { accountId: 'acct_1', mode: 'test' }, requestId: 'req_1' }]);
  });

  it('runs the handler in its request id\'s scope and ends each call with one log line naming it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const service = implementService<{ createThing: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void }>(
      { createThing: async () => ({ seen: currentRequestId() }) },
      { tokenSecret, logger },
    );
    const answer = await new Promise<Parameters<sendUnaryData<unknown>>>((resolve) => service.createThing(unaryCall(Infinity), (...args) => resolve(args)));
    expect(answer).toEqual([null, { seen: 'req_1' }]);
    expect(lines).toEqual([expect.objectContaining({ msg: 'call', request_id: 'req_1', rpc: 'createThing', account_id: 'acct_1', mode: 'test', outcome: 'ok' })]);
  });

  it('refuses a call whose token was signed with another secret, every time', async () => {
    const forged = () => {
      const call = unaryCall(Infinity);
      call.metadata.set(INTERNAL_TOKEN_METADATA, signInternalToken({ tenant: { account_id: 'acct_1', mode: 'test' } }, 'another-secret-of-enough-length'));
      return call;
    };
    expect((await invoke(async () => ({}), forged()))[0]).toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    expect((await invoke(async () => ({}), forged()))[0]).toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it('runs a call without a key outside any idempotent call', async () => {
    expect(await invoke(async () => ({ current: currentIdempotentCall() ?? null }), unaryCall(Infinity))).toEqual([null, { current: null }]);
  });
});

describe('the calls a service served, in its metrics', () => {
  it('counts each call by method and outcome, and times it by method', async () => {
    const registry = new Registry();
    const service = implementService<{ createThing: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void }>(
      {
        createThing: async (request: unknown) => {
          if ((request as { refuse?: boolean }).refuse) throw new ApiError('parameter_invalid', 'No.', { param: 'name' });
          return {};
        },
      },
      { ...options, metricsRegistry: registry },
    );
    const call = (request: unknown) =>
      new Promise((resolve) => service.createThing(Object.assign(unaryCall(Infinity), { request }), (...args) => resolve(args)));
    await call({});
    await call({});
    await call({ refuse: true });

    const text = await registry.metrics();
    expect(text).toContain('grpc_server_handled_total{rpc="createThing",outcome="ok"} 2');
    expect(text).toContain('grpc_server_handled_total{rpc="createThing",outcome="parameter_invalid"} 1');
    expect(text).toContain('grpc_server_handling_seconds_count{rpc="createThing"} 3');
  });
});

describe('calls taken together (decision 0058)', () => {
  type TogetherServer = {
    createThing: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
    createThingTogether: (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
  };
  const item = (requestId: string, request: unknown, fields: { deadlineAtMs?: number; key?: string } = {}) => ({
    metadata: { request_id: requestId, deadline_at_ms: fields.deadlineAtMs ?? 0, idempotency_key: fields.key ?? '', idempotency_fingerprint: fields.key ? `print-${fields.key}` : '' },
    request,
  });
  const together = (calls: unknown[], extra?: (metadata: Metadata) => void) =>
    Object.assign(unaryCall(Infinity, extra), { request: { calls }, getPath: () => '/test.v1.Things/CreateThingTogether' });
  function invokeTogether(handler: (request: unknown, context: CallContext) => Promise<unknown>, call: ServerUnaryCall<unknown, unknown>, serviceOptions: GrpcServerOptions = options) {
    const service = implementService<TogetherServer, 'createThing'>({ createThing: handler }, serviceOptions, ['createThing']);
    return new Promise<Parameters<sendUnaryData<unknown>>>((resolve) => service.createThingTogether(call, (...args) => resolve(args)));
  }

  it('runs each call as it would run alone, in its own request id’s scope and under its own key, and answers each one’s outcome in order', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const handler = async (request: unknown, context: CallContext) => {
      const { name } = request as { name: string };
      if (name === 'refused') throw new ApiError('parameter_invalid', 'No name like that.', { param: 'name' });
      const idempotent = currentIdempotentCall();
      if (name === 'again') idempotent!.markReplayed();
      return { name, requestId: context.requestId, scope: currentRequestId(), key: idempotent && { operation: idempotent.operation, key: idempotent.key, fingerprint: idempotent.fingerprint } };
    };
    const answer = await invokeTogether(
      handler,
      together([item('req_a', { name: 'first' }, { key: 'key-a' }), item('req_b', { name: 'refused' }), item('req_c', { name: 'again' }, { key: 'key-c' })]),
      { tokenSecret, logger },
    );

    expect(answer).toEqual([
      null,
      {
        outcomes: [
          { outcome: { $case: 'response', value: { name: 'first', requestId: 'req_a', scope: 'req_a', key: { operation: '/test.v1.Things/CreateThing', key: 'key-a', fingerprint: 'print-key-a' } } }, replayed: false },
          { outcome: { $case: 'refusal', value: { code: 'parameter_invalid', message: 'No name like that.', param: 'name' } }, replayed: false },
          { outcome: { $case: 'response', value: { name: 'again', requestId: 'req_c', scope: 'req_c', key: { operation: '/test.v1.Things/CreateThing', key: 'key-c', fingerprint: 'print-key-c' } } }, replayed: true },
        ],
      },
    ]);
    const logged = lines.map(({ request_id, rpc, outcome }) => ({ request_id: request_id as string, rpc, outcome }));
    expect(logged.sort((one, other) => one.request_id.localeCompare(other.request_id))).toEqual([
      { request_id: 'req_a', rpc: 'createThing', outcome: 'ok' },
      { request_id: 'req_b', rpc: 'createThing', outcome: 'parameter_invalid' },
      { request_id: 'req_c', rpc: 'createThing', outcome: 'replayed' },
    ]);
  });

  it('does not run a call whose own deadline passed, and answers it as a call sent alone too late is answered; the others run', async () => {
    const handler = jest.fn(async (request: unknown) => request);
    const [, answer] = await invokeTogether(handler, together([item('req_late', { n: 1 }, { deadlineAtMs: Date.now() - 1 }), item('req_on_time', { n: 2 }, { deadlineAtMs: Date.now() + 5_000 })]));
    expect(answer).toEqual({
      outcomes: [
        { outcome: { $case: 'refusal', value: expect.objectContaining({ code: 'service_unavailable' }) }, replayed: false },
        { outcome: { $case: 'response', value: { n: 2 } }, replayed: false },
      ],
    });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers a call that failed inside as an internal error, and one whose dependency did not answer as unavailable, without failing the others', async () => {
    const handler = async (request: unknown) => {
      const { fail } = request as { fail?: 'bug' | 'database' };
      if (fail === 'bug') throw new Error('Cannot read properties of undefined');
      if (fail === 'database') throw new Error('Connection terminated unexpectedly');
      return { ok: true };
    };
    const [, answer] = await invokeTogether(handler, together([item('req_1', { fail: 'bug' }), item('req_2', { fail: 'database' }), item('req_3', {})]), {
      ...options,
      unavailableWhen: (error) => error instanceof Error && error.message === 'Connection terminated unexpectedly',
    });
    expect(answer).toEqual({
      outcomes: [
        { outcome: { $case: 'refusal', value: expect.objectContaining({ code: 'internal_error' }) }, replayed: false },
        { outcome: { $case: 'refusal', value: expect.objectContaining({ code: 'service_unavailable' }) }, replayed: false },
        { outcome: { $case: 'response', value: { ok: true } }, replayed: false },
      ],
    });
  });

  it('refuses the whole call when its token is not valid, or when it stands for more than 500 calls, and runs none', async () => {
    const handler = jest.fn(async () => ({}));
    const forged = together([item('req_1', {})], (metadata) => metadata.set(INTERNAL_TOKEN_METADATA, 'not-a-token'));
    expect((await invokeTogether(handler, forged))[0]).toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    const tooMany = together(Array.from({ length: 501 }, (_, index) => item(`req_${index}`, {})));
    expect((await invokeTogether(handler, tooMany))[0]).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    expect(handler).not.toHaveBeenCalled();
  });
});
