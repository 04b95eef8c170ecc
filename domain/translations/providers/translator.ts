/**
 * The one entry point of translation: the provider TRANSLATION_PROVIDER names, fed in batches of at
 * most TRANSLATION_BATCH_SEGMENTS segments (and the provider's own limit) and about
 * TRANSLATION_BATCH_CHARS characters, one request after the other through one rate-limited client.
 */
import type { Config } from '../../../platform/config';
import type { Segment } from '../segments';
import { deeplProvider } from './deepl';
import { ProviderHttp } from './http';
import { libreTranslateProvider } from './libretranslate';
import { openAIProvider } from './openai';
import type { TranslationProvider, TranslationRequest } from './provider';
import { pseudoProvider } from './pseudo';

export type TranslationSettings = Config['translation'];

export class Translator {
  constructor(
    readonly provider: TranslationProvider,
    private readonly batch: { segments: number; chars: number },
  ) {}

  private batches(segments: Segment[]): Segment[][] {
    const max = Math.min(this.batch.segments, this.provider.maxSegments);
    const out: Segment[][] = [];
    let current: Segment[] = [];
    let chars = 0;
    for (const segment of segments) {
      const size = segment.reduce<number>((n, p) => n + (typeof p === 'string' ? p.length : 12), 0);
      if (current.length && (current.length >= max || chars + size > this.batch.chars)) {
        out.push(current);
        current = [];
        chars = 0;
      }
      current.push(segment);
      chars += size;
    }
    if (current.length) out.push(current);
    return out;
  }

  /** The segments translated, in order; `onBatch` is called after each request (for heartbeats). */
  async translate(
    segments: Segment[],
    request: TranslationRequest,
    onBatch: () => void = () => {},
  ): Promise<Segment[]> {
    const out: Segment[] = [];
    for (const batch of this.batches(segments)) {
      out.push(...(await this.provider.translateBatch(batch, request)));
      onBatch();
    }
    return out;
  }
}

function providerOf(settings: TranslationSettings): TranslationProvider {
  const http = (name: string, key: string) =>
    new ProviderHttp(
      name,
      { timeoutMs: settings.timeoutMs, requestsPerSecond: settings.requestsPerSecond, retry: settings.retry },
      [key],
    );
  switch (settings.provider) {
    case 'libretranslate':
      return libreTranslateProvider(settings.libretranslate, http('libretranslate', settings.libretranslate.apiKey));
    case 'deepl':
      return deeplProvider(settings.deepl, http('deepl', settings.deepl.apiKey));
    case 'openai':
      return openAIProvider(settings.openai, http('openai', settings.openai.apiKey));
    case 'pseudo':
      return pseudoProvider;
  }
}

export function createTranslator(settings: TranslationSettings): Translator {
  return new Translator(providerOf(settings), { segments: settings.batchSegments, chars: settings.batchChars });
}
