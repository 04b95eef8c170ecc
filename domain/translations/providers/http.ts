/**
 * The HTTP client of the translation providers. Their base URLs and keys are the operator's
 * configuration, not user input, so this is a plain client (a self-hosted LibreTranslate on localhost
 * must work), not the guarded fetch; every request has a timeout. Requests are spaced to at most
 * TRANSLATION_REQUESTS_PER_SECOND; 429, 5xx, timeouts and network errors are retried with exponential
 * back-off (a Retry-After is honoured up to the maximum back-off), and once those attempts are spent
 * the step fails retryably (Temporal tries it again within the kind's budget); any other 4xx is a
 * permanent failure. Error messages carry the provider's status and its own explanation, never the URL or key.
 */
import { JobError } from '../../jobs/job-error';
import { TRANSLATION_FAILURES } from '../failures';

export interface ProviderHttpSettings {
  timeoutMs: number;
  /** 0: no spacing */
  requestsPerSecond: number;
  retry: { attempts: number; initialMs: number; maxMs: number };
}

const DETAIL_MAX = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as Retry-After allows; null when absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The provider's own words about a failure: a JSON `error`/`message`/`detail`, or the start of a text body. */
function detailOf(body: string): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body.replace(/\s+/g, ' ').trim().slice(0, DETAIL_MAX) || 'no explanation given';
  }
  const fields = json && typeof json === 'object' ? (json as Record<string, unknown>) : { message: json };
  const error = fields.error as { message?: unknown } | string | undefined;
  const found = [typeof error === 'string' ? error : error?.message, fields.message, fields.detail].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  return found?.slice(0, DETAIL_MAX) ?? 'no explanation given';
}

export class ProviderHttp {
  private nextSlot = 0;

  constructor(
    readonly provider: string,
    private readonly settings: ProviderHttpSettings,
    /** Values never to repeat in an error message (keys). */
    private readonly secrets: string[] = [],
  ) {}

  private scrub(text: string): string {
    return this.secrets.filter(Boolean).reduce((out, secret) => out.split(secret).join('***'), text);
  }

  /** Waits for this client's next request slot. */
  private async slot(): Promise<void> {
    if (!this.settings.requestsPerSecond) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 1000 / this.settings.requestsPerSecond;
    if (at > now) await sleep(at - now);
  }

  /** POSTs JSON and returns the parsed answer of a 2xx. */
  async postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const { attempts, initialMs, maxMs } = this.settings.retry;
    let last = '';
    for (let attempt = 1; ; attempt++) {
      await this.slot();
      let res: Response | null = null;
      let text = '';
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        });
        text = await res.text();
      } catch (err) {
        last =
          (err as { name?: string } | null)?.name === 'TimeoutError'
            ? `no answer within ${this.settings.timeoutMs} ms`
            : 'the connection failed';
      }
      if (res?.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw new Error(`${this.provider} answered HTTP ${res.status} with a body that is not JSON`);
        }
      }
      let wait: number | null = null;
      if (res) {
        const detail = this.scrub(detailOf(text));
        if (res.status !== 429 && res.status !== 408 && res.status < 500) {
          const message = `${this.provider} refused the request (HTTP ${res.status}): ${detail}`;
          throw new JobError(TRANSLATION_FAILURES.rejected, message, [{ message, code: `HTTP_${res.status}` }]);
        }
        last = `HTTP ${res.status}: ${detail}`;
        wait = retryAfterMs(res.headers.get('retry-after'), Date.now());
      }
      if (attempt >= attempts) {
        const message = `${this.provider} did not answer successfully after ${attempts} attempts (last: ${last})`;
        throw new JobError(TRANSLATION_FAILURES.unavailable, message, undefined, { retryable: true });
      }
      const backoff = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
      await sleep(Math.min(maxMs, Math.max(backoff, wait ?? 0)));
    }
  }
}
