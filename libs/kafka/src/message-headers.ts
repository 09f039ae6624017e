import type { IHeaders } from 'kafkajs';
import type { DomainEventEnvelope } from '@ticketing/contracts';

/**
 * Kafka headers every relayed event carries, copied from its envelope, so that tools and the
 * dead-letter path can follow a request even through a message whose body cannot be read.
 */
export const EVENT_HEADERS = { requestId: 'request-id', accountId: 'account-id', mode: 'mode' } as const;

/** Who and what a log line is about: the request that caused the event and its tenant. */
export interface EventLogContext {
  request_id?: string;
  account_id?: string;
  mode?: string;
}

export function eventHeaders(envelope: Pick<DomainEventEnvelope, 'account_id' | 'mode' | 'request_id'>): IHeaders {
  const headers: IHeaders = { [EVENT_HEADERS.accountId]: envelope.account_id, [EVENT_HEADERS.mode]: envelope.mode };
  if (envelope.request_id) headers[EVENT_HEADERS.requestId] = envelope.request_id;
  return headers;
}

export function logContextOf(envelope: Pick<DomainEventEnvelope, 'account_id' | 'mode' | 'request_id'>): EventLogContext {
  return { request_id: envelope.request_id, account_id: envelope.account_id, mode: envelope.mode };
}

/** The same context read from headers, for a message whose body could not be parsed. */
export function logContextFromHeaders(headers: IHeaders | undefined): EventLogContext {
  return {
    request_id: headerText(headers, EVENT_HEADERS.requestId),
    account_id: headerText(headers, EVENT_HEADERS.accountId),
    mode: headerText(headers, EVENT_HEADERS.mode),
  };
}

export function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}
