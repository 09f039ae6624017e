import { Metadata, status as GrpcStatus, type CallOptions, type ServiceError } from '@grpc/grpc-js';
import { internalTokenFor, type InternalClaims } from '@ticketing/auth';
import { CallsTogether, type CallsTogetherOptions } from './calls-together';
import type { CallerOptions } from './client';
import { DEADLINE_METADATA, INTERNAL_TOKEN_METADATA } from './server';
import type { CallsTogetherMessage, TogetherOutcomesMessage } from './together-messages';

const tokenSecret = 'a-test-secret-of-enough-length';
const options: CallerOptions = { tokenSecret, deadlineMs: 5_000 };
const claimsOf = (accountId: string, requestId: string): InternalClaims => ({ request_id: requestId, tenant: { account_id: accountId, mode: 'test' } });

interface SentCall {
  message: CallsTogetherMessage<{ n: number }>;
  metadata: Metadata;
  deadline: Date;
  answer(error: Partial<ServiceError> | null, outcomes?: TogetherOutcomesMessage<{ doubled: number }>['outcomes']): void;
}

/** A `…Together` method that records each call and lets the test answer it. */
function recordingMethod(togetherOptions: CallsTogetherOptions = {}) {
  const sent: SentCall[] = [];
  const method = (message: CallsTogetherMessage<{ n: number }>, metadata: Metadata, callOptions: Partial<CallOptions>, callback: (error: ServiceError | null, answer: TogetherOutcomesMessage<{ doubled: number }>) => void) => {
    sent.push({ message, metadata, deadline: callOptions.deadline as Date, answer: (error, outcomes = []) => callback(error as ServiceError | null, { outcomes }) });
    return {} as never;
  };
  return { sent, together: new CallsTogether<{ n: number }, { doubled: number }>(method, togetherOptions) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CallsTogether (decision 0058)', () => {
  it('sends the calls made in one turn under one principal as one call, each with what it would carry alone, and gives each its own outcome', async () => {
    const { sent, together } = recordingMethod();
    const replays: string[] = [];
    const keyed = (key: string): CallerOptions => ({ ...options, idempotency: { key, fingerprint: `print-${key}`, onReplayed: () => replays.push(key) } });
    const calls = [
      together.call({ n: 1 }, claimsOf('acct_1', 'req_1'), keyed('key-1')),
      together.call({ n: 2 }, claimsOf('acct_1', 'req_2'), options),
      together.call({ n: 3 }, claimsOf('acct_1', 'req_3'), keyed('key-3')),
    ].map((call) => call.then((value) => ({ value }), (error: unknown) => ({ error })));
    await settle();

    expect(sent).toHaveLength(1);
    const [{ message, metadata, deadline }] = sent as [SentCall];
    expect(metadata.get(INTERNAL_TOKEN_METADATA)).toEqual([internalTokenFor(claimsOf('acct_1', 'req_1'), tokenSecret)]);
    expect(Number(metadata.get(DEADLINE_METADATA)[0])).toBe(deadline.getTime());
    expect(message.calls).toEqual([
      { metadata: { request_id: 'req_1', deadline_at_ms: expect.any(Number), idempotency_key: 'key-1', idempotency_fingerprint: 'print-key-1' }, request: { n: 1 } },
      { metadata: { request_id: 'req_2', deadline_at_ms: expect.any(Number), idempotency_key: '', idempotency_fingerprint: '' }, request: { n: 2 } },
      { metadata: { request_id: 'req_3', deadline_at_ms: expect.any(Number), idempotency_key: 'key-3', idempotency_fingerprint: 'print-key-3' }, request: { n: 3 } },
    ]);
    // The whole call lasts as long as its last item's deadline; each item keeps its own.
    expect(deadline.getTime()).toBe(Math.max(...message.calls.map((call) => call.metadata!.deadline_at_ms)));
    expect(deadline.getTime()).toBeGreaterThan(Date.now() + 4_000);

    sent[0]!.answer(null, [
      { outcome: { $case: 'response', value: { doubled: 2 } }, replayed: false },
      { outcome: { $case: 'refusal', value: { code: 'sold_out', message: 'Sold out.', param: '' } }, replayed: false },
      { outcome: { $case: 'response', value: { doubled: 6 } }, replayed: true },
    ]);
    expect(await Promise.all(calls)).toEqual([{ value: { doubled: 2 } }, { error: expect.objectContaining({ code: 'sold_out', status: 409 }) }, { value: { doubled: 6 } }]);
    expect(replays).toEqual(['key-3']);
  });

  it('sends the calls of different principals, and those of a later turn, in calls of their own', async () => {
    const { sent, together } = recordingMethod();
    void together.call({ n: 1 }, claimsOf('acct_1', 'req_1'), options);
    void together.call({ n: 2 }, claimsOf('acct_2', 'req_2'), options);
    await settle();
    void together.call({ n: 3 }, claimsOf('acct_1', 'req_3'), options);
    await settle();
    expect(sent.map(({ message }) => message.calls.map((call) => call.request!.n))).toEqual([[1], [2], [3]]);
    expect(new Set(sent.map(({ metadata }) => metadata.get(INTERNAL_TOKEN_METADATA)[0])).size).toBe(2);
  });

  it('with waitForCallInFlight, keeps the calls made while a principal’s call is on its way until it ends, then sends them together at once', async () => {
    const { sent, together } = recordingMethod({ waitForCallInFlight: true });
    const first = together.call({ n: 1 }, claimsOf('acct_1', 'req_1'), options);
    await settle();
    void together.call({ n: 2 }, claimsOf('acct_1', 'req_2'), options);
    await settle();
    void together.call({ n: 3 }, claimsOf('acct_1', 'req_3'), options);
    void together.call({ n: 4 }, claimsOf('acct_2', 'req_4'), options);
    await settle();
    // acct_1's later calls wait for its first; acct_2 has nothing on its way.
    expect(sent.map(({ message }) => message.calls.map((call) => call.request!.n))).toEqual([[1], [4]]);
    sent[0]!.answer(null, [{ outcome: { $case: 'response', value: { doubled: 2 } }, replayed: false }]);
    await expect(first).resolves.toEqual({ doubled: 2 });
    expect(sent.map(({ message }) => message.calls.map((call) => call.request!.n))).toEqual([[1], [4], [2, 3]]);
  });

  it('sends a full batch of 500 at once; the calls after it wait for the turn', async () => {
    const { sent, together } = recordingMethod();
    for (let n = 0; n < 501; n++) void together.call({ n }, claimsOf('acct_1', `req_${n}`), options);
    expect(sent.map(({ message }) => message.calls.length)).toEqual([500]);
    await settle();
    expect(sent.map(({ message }) => message.calls.length)).toEqual([500, 1]);
  });

  it('with waitForCallInFlight, sends the calls that waited only once every call on its way has ended, a full batch among them', async () => {
    const { sent, together } = recordingMethod({ waitForCallInFlight: true });
    const calls = (from: number, count: number) => Array.from({ length: count }, (_, index) => together.call({ n: from + index }, claimsOf('acct_1', `req_${from + index}`), options));
    void calls(0, 1);
    await settle();
    // 500 calls while the first is on its way: a full batch leaves at once; the next one waits for both.
    void calls(1, 501);
    await settle();
    expect(sent.map(({ message }) => message.calls.length)).toEqual([1, 500]);
    const answered = (call: SentCall) => call.answer(null, call.message.calls.map(({ request }) => ({ outcome: { $case: 'response', value: { doubled: request!.n * 2 } }, replayed: false })));
    answered(sent[0]!);
    await settle();
    expect(sent.map(({ message }) => message.calls.length)).toEqual([1, 500]);
    answered(sent[1]!);
    await settle();
    expect(sent.map(({ message }) => message.calls.length)).toEqual([1, 500, 1]);
  });

  it('fails every call with what the whole call’s failure means, as a call sent alone would fail; an item the answer left out is an internal error', async () => {
    const { sent, together } = recordingMethod();
    const unavailable = [1, 2].map((n) => together.call({ n }, claimsOf('acct_1', `req_${n}`), options));
    await settle();
    sent[0]!.answer({ code: GrpcStatus.UNAVAILABLE, details: 'connection refused', metadata: new Metadata() });
    for (const call of unavailable) await expect(call).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });

    const leftOut = [3, 4].map((n) => together.call({ n }, claimsOf('acct_1', `req_${n}`), options));
    await settle();
    sent[1]!.answer(null, [{ outcome: { $case: 'response', value: { doubled: 6 } }, replayed: false }]);
    await expect(leftOut[0]).resolves.toEqual({ doubled: 6 });
    await expect(leftOut[1]).rejects.toMatchObject({ code: 'internal_error' });
  });
});
