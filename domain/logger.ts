/** Structured JSON logs (pino) for api, worker and CLI alike. */
import pino, { Logger } from 'pino';

export function createLogger(level: string, name: string): Logger {
  return pino({ level, name, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
}
