/** Structured JSON logs (pino) for api, worker and CLI alike. */
import pino, { Logger } from 'pino';

/**
 * Writes to stdout asynchronously: a line waits only for the write in flight, so under load lines
 * leave in batches instead of one blocking write each; pino flushes what is left when the process exits.
 */
export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false }));
}
