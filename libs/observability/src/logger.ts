import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout; secrets never reach a log (keys are logged by prefix only). */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'secret', '*.secret'], censor: '[redacted]' },
  });
}
