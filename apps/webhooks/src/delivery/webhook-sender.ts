import http from 'node:http';
import https from 'node:https';
import type { Mode } from '@ticketing/auth';
import { checkLiteralDestination, guardedLookup, type DestinationSettings } from '../destinations/destination-policy';

/** What one attempt learned. `status` is null when no answer came. */
export interface SendOutcome {
  succeeded: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** The answer's first kilobyte, as text. */
  responseBody: string | null;
}

export interface WebhookRequest {
  url: string;
  mode: Mode;
  headers: Record<string, string>;
  body: string;
}

/** Kept from an answer for the delivery log. */
const RESPONSE_BODY_KEPT = 1024;
/** Read from an answer at most, so its connection can be reused; a longer answer's connection is closed. */
const RESPONSE_BODY_READ = 64 * 1024;
const USER_AGENT = 'ticketing-webhooks/1';

/**
 * POSTs one signed delivery. Every connection goes through the destination guard (a kept-alive
 * socket is reused without a new lookup, so each mode has its own agents, never the global one).
 * A 2xx answer within `timeoutMs` succeeds; anything else (another status, a redirect, which is
 * not followed, a timeout, a refused or forbidden connection) fails.
 */
export class WebhookSender {
  private readonly agents: Record<Mode, { http: http.Agent; https: https.Agent }>;

  constructor(
    private readonly destinations: DestinationSettings,
    private readonly timeoutMs: number,
  ) {
    const agentsFor = (mode: Mode) => {
      const options = { keepAlive: true, maxSockets: 50, lookup: guardedLookup(mode, destinations) };
      return { http: new http.Agent(options), https: new https.Agent(options) };
    };
    this.agents = { test: agentsFor('test'), live: agentsFor('live') };
  }

  async send(request: WebhookRequest): Promise<SendOutcome> {
    const started = performance.now();
    const failed = (error: string): SendOutcome => ({ succeeded: false, status: null, latencyMs: elapsed(started), error, responseBody: null });
    const url = URL.parse(request.url);
    if (!url) return failed(`the endpoint URL ${request.url} does not parse`);
    const forbidden = checkLiteralDestination(url, request.mode, this.destinations);
    if (forbidden) return failed(forbidden);
    const transport = url.protocol === 'https:' ? https : http;
    const agent = this.agents[request.mode][url.protocol === 'https:' ? 'https' : 'http'];
    return new Promise<SendOutcome>((resolve) => {
      const outgoing = transport.request(url, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': Buffer.byteLength(request.body), ...request.headers },
      });
      const deadline = setTimeout(() => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      const finish = (outcome: SendOutcome) => {
        clearTimeout(deadline);
        resolve(outcome);
      };
      outgoing.on('error', (error) => finish(failed(error.message)));
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= RESPONSE_BODY_READ) chunks.push(chunk);
          else response.destroy();
        });
        response.on('error', (error) => finish(failed(error.message)));
        response.on('close', () => {
          const status = response.statusCode ?? 0;
          const succeeded = status >= 200 && status < 300;
          const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_KEPT).toString('utf8');
          finish({ succeeded, status, latencyMs: elapsed(started), error: succeeded ? null : `the endpoint answered ${status}`, responseBody: body });
        });
      });
      outgoing.end(request.body);
    });
  }

  close(): void {
    for (const agents of Object.values(this.agents)) {
      agents.http.destroy();
      agents.https.destroy();
    }
  }
}

const elapsed = (started: number) => Math.round(performance.now() - started);
