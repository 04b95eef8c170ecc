/** Builders for the `urls` blocks: API locations from PUBLIC_BASE_URL, app and published links from their bases. */
import type { Config } from '../platform/config';

export class Urls {
  constructor(private readonly config: Pick<Config, 'publicBaseUrl' | 'appBaseUrl' | 'publishedBaseUrl'>) {}
  api(path: string): string {
    return `${this.config.publicBaseUrl}/v1${path}`;
  }
  app(path: string): string {
    return `${this.config.appBaseUrl}${path}`;
  }
  published(path: string): string {
    return `${this.config.publishedBaseUrl}${path}`;
  }
}
