/**
 * The `libretranslate` provider: POST {url}/translate of the open-source LibreTranslate server, the
 * segments as an array `q` in `format: "html"` (which keeps the placeholders), answered as an array
 * `translatedText`. The key (`api_key`) is optional: a self-hosted server may run without one.
 */
import type { Segment } from '../segments';
import type { ProviderHttp } from './http';
import type { TranslationProvider } from './provider';
import { fromTagged, toTagged } from './tags';

/** Our codes where LibreTranslate (Argos) uses others. */
const CODES: Record<string, string> = { 'pt-br': 'pb', 'zh-tw': 'zt', no: 'nb' };
const code = (language: string) => CODES[language] ?? language;

export function libreTranslateProvider(
  settings: { url: string; apiKey: string },
  http: ProviderHttp,
): TranslationProvider {
  const endpoint = `${settings.url.replace(/\/+$/, '')}/translate`;
  return {
    name: 'libretranslate',
    maxSegments: 50,
    async translateBatch(segments, request): Promise<Segment[]> {
      const answer = (await http.postJson(endpoint, {
        q: segments.map(toTagged),
        source: code(request.source),
        target: code(request.target),
        format: 'html',
        ...(settings.apiKey ? { api_key: settings.apiKey } : {}),
      })) as { translatedText?: unknown };
      const texts = answer.translatedText;
      if (!Array.isArray(texts) || texts.length !== segments.length || !texts.every((t) => typeof t === 'string')) {
        throw new Error(`libretranslate answered without one translatedText per segment`);
      }
      return texts.map(fromTagged);
    },
  };
}
