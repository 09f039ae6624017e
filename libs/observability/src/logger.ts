import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout; secrets never reach a log (keys are logged by prefix only). Written
 * asynchronously: while one write is under way, further lines queue and go out together in the
 * next, so a busy process makes one write for many lines instead of a blocking write per line.
 * Pino flushes the queue when the process exits.
 */
export function createLogger(service: string, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', '*.secret'], censor: '[redacted]' },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
