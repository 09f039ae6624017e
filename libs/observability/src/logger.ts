import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Lines are written in blocks of at least this many bytes, or at the latest after
 * LOG_FLUSH_INTERVAL_MS: a busy process (an on-sale: a few lines per sale in each service) makes
 * one write for a dozen lines or more, not one per line (decision 0060).
 */
const LOG_WRITE_MIN_BYTES = 4096;
const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * JSON lines on stdout; secrets never reach a log (keys are logged by prefix only). Written
 * asynchronously and in blocks (above): while one write is under way, further lines queue and go
 * out together in the next, and a line waits at most a tenth of a second for company. Pino
 * flushes what is queued when the process exits.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', '*.secret'], censor: '[redacted]' },
    },
    pino.destination({ dest: 1, sync: false, minLength: LOG_WRITE_MIN_BYTES, periodicFlush: LOG_FLUSH_INTERVAL_MS }),
  );
}

/**
 * Ends the logger's stream and waits until its last lines are written (or the wait is over), so
 * that the process can exit. Needed before `process.exit`: a write still under way then is never
 * reported, and pino's exit hook retries it synchronously; on a stdout whose reader is gone (the
 * supervisor killed with SIGKILL) sonic-boom 4's `flushSync` retries EPIPE forever, and the
 * process never exits (found when `npm start`'s parent was killed: SIGTERM left three services
 * running). Ending first lets the failed write be reported, after which pino drops the stream.
 */
export function closeLogger(logger: Logger, timeoutMs = 2_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, NodeJS.WritableStream | undefined>)[pino.symbols.streamSym];
  if (!stream) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    stream.once('close', done);
    stream.once('error', done);
    try {
      stream.end();
    } catch {
      done(); // already ended: nothing left to write
    }
  });
}
