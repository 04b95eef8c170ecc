/** Structured JSON logs (pino) for api, worker and CLI alike. */
import pino, { Logger } from 'pino';

/** How long a buffered log line may wait before it is written. */
const FLUSH_INTERVAL_MS = 1000;

/**
 * `buffered`: lines are gathered into writes of about 4 KiB, at least once a second and at exit,
 * instead of one write to stdout per line; the API logs a line per request, and that write was a
 * tenth of a request's CPU. A hard kill (SIGKILL) loses at most the last second of lines.
 */
export function createLogger(level: string, name: string, options: { buffered?: boolean } = {}): Logger {
  const settings = { level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime };
  if (!options.buffered) return pino(settings);
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref();
  return pino(settings, destination);
}
