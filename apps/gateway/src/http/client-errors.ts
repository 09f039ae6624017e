import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, toErrorEnvelope } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import { REQUEST_ID_HEADER } from './request-id.middleware';

/** Node's own limit on a request's headers (its `--max-http-header-size`), for the message. */
const MAX_HEADER_KIB = 16;

/** What Node's HTTP parser refused before any route saw the request, in the public API's terms. */
function clientErrorOf(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', `The request's URL and headers are larger than ${MAX_HEADER_KIB} KiB in all, the most the API takes; send a shorter URL, or fewer or shorter headers.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request did not arrive in full in time; send it again.');
    default:
      return new ApiError('malformed_request', `The request is not valid HTTP/1.1 (${error.code ?? error.message}).`);
  }
}

/** A connection as Node's HTTP server keeps it: `_httpMessage` is the response it is writing, if any. */
type ServerSocket = Duplex & { _httpMessage?: { headersSent: boolean } | null };

/**
 * Answers a request Node's HTTP server refused before Express saw it (headers too large, a
 * request that did not arrive in time, bytes that are not HTTP) with the error envelope, as
 * every error must be, instead of Node's bare status line. It answers when Node itself would:
 * the connection can still be written to and no response on it has begun (answering then would
 * corrupt that response); then it closes the connection, whose request cannot be read further.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: ServerSocket): void {
  // Bytes after a request that said `Connection: close`: that request is answered, and then the
  // connection closes, as it asked; the bytes are no request of its, so they are let go unread.
  if (error.code === 'HPE_CLOSED_CONNECTION' && socket._httpMessage) return;
  if (socket.writable && !socket._httpMessage?.headersSent) {
    const apiError = clientErrorOf(error);
    const requestId = newId('req');
    const body = JSON.stringify(toErrorEnvelope(apiError, requestId));
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}
