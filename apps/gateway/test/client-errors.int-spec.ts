import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import express from 'express';
import { answerClientError } from '../src/http/client-errors';
import { closeGracefully, listen } from '../src/http/http-server';

/**
 * Sends raw bytes to the server and reads everything it answers until it closes the connection;
 * `halfClose: false` keeps the sending side open, as a client pipelining requests does.
 */
function exchange(server: Server, bytes: string, { halfClose = true } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    if (halfClose) socket.end(bytes);
    else socket.write(bytes);
  });
}

function parsed(answer: string): { statusLine: string; headers: string; body: { error: Record<string, string> } } {
  const [head, body] = answer.split('\r\n\r\n');
  const [statusLine, ...headers] = head!.split('\r\n');
  return { statusLine: statusLine!, headers: headers.join('\n'), body: JSON.parse(body!) };
}

describe('requests Node refuses before any route sees them', () => {
  let server: Server;

  beforeAll(async () => {
    const app = express();
    app.get('/v1/health', (_req, res) => res.json({ status: 'ok' }));
    // Answers a moment later, as every API operation does: bytes that follow it arrive while it runs.
    app.get('/v1/account', (_req, res) => void setTimeout(() => res.json({ status: 'ok' }), 50));
    server = await listen(app, 0);
  });
  afterAll(() => closeGracefully(server));

  it('answers headers over the limit with 431 and the error envelope', async () => {
    const answer = parsed(await exchange(server, `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));

    expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer.headers).toMatch(/^Content-Type: application\/json/m);
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'headers_too_large' });
    expect(answer.body.error.message).toContain('16 KiB');
    expect(answer.headers).toContain(`Request-Id: ${answer.body.error.request_id}`);
    expect(answer.body.error.request_id).toMatch(/^req_/);
  });

  it('answers bytes that are not HTTP with 400 and the error envelope', async () => {
    const answer = parsed(await exchange(server, 'HELLO THERE\r\n\r\n'));

    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'malformed_request' });
  });

  it('answers a request that asked for Connection: close though more bytes follow it, and lets those go', async () => {
    const answer = await exchange(server, 'GET /v1/account HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', {
      halfClose: false,
    });

    expect(answer).toMatch(/^HTTP\/1.1 200 OK/);
    expect(answer.match(/HTTP\/1.1 \d{3}/g)).toHaveLength(1);
  });

  it('still answers a well-formed request on the same server', async () => {
    const answer = await exchange(server, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');

    expect(answer).toMatch(/^HTTP\/1.1 200 OK/);
  });
});

describe('answerClientError', () => {
  /** A connection that records what is written to it, with the response Node would be writing on it. */
  function connection(inFlight: { headersSent: boolean } | null): Duplex & { written: string[]; _httpMessage: { headersSent: boolean } | null } {
    const written: string[] = [];
    const socket = new Duplex({
      read: () => undefined,
      write: (chunk: Buffer, _encoding, done) => {
        written.push(chunk.toString());
        done();
      },
    });
    socket.on('error', () => undefined);
    return Object.assign(socket, { written, _httpMessage: inFlight });
  }

  it('answers a request that did not arrive in time with 408', () => {
    const socket = connection(null);

    answerClientError(Object.assign(new Error('timed out'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);

    const answer = parsed(socket.written.join(''));
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(answer.body.error.code).toBe('request_timeout');
    expect(socket.destroyed).toBe(true);
  });

  it('writes nothing into a response already under way, and closes the connection', () => {
    const socket = connection({ headersSent: true });

    answerClientError(Object.assign(new Error('bad'), { code: 'HPE_INVALID_METHOD' }), socket);

    expect(socket.written).toEqual([]);
    expect(socket.destroyed).toBe(true);
  });
});
