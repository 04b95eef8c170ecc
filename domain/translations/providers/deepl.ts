/**
 * The `deepl` provider: POST {url}/v2/translate of the DeepL API with `DeepL-Auth-Key`, the segments
 * as `text` with `tag_handling: "xml"` (which keeps the placeholders), answered as `translations[].text`.
 */
import type { Segment } from '../segments';
import type { ProviderHttp } from './http';
import type { TranslationProvider } from './provider';
import { fromTagged, toTagged } from './tags';

/** DeepL's source languages have no variant; its targets name one for English, Portuguese and Chinese. */
const SOURCE_CODES: Record<string, string> = { 'pt-br': 'PT', 'zh-tw': 'ZH', no: 'NB' };
const TARGET_CODES: Record<string, string> = {
  en: 'EN-US',
  pt: 'PT-PT',
  'pt-br': 'PT-BR',
  zh: 'ZH-HANS',
  'zh-tw': 'ZH-HANT',
  no: 'NB',
};

export function deeplProvider(settings: { url: string; apiKey: string }, http: ProviderHttp): TranslationProvider {
  const endpoint = `${settings.url.replace(/\/+$/, '')}/v2/translate`;
  return {
    name: 'deepl',
    // DeepL takes at most 50 texts per request
    maxSegments: 50,
    async translateBatch(segments, request): Promise<Segment[]> {
      const answer = (await http.postJson(
        endpoint,
        {
          text: segments.map(toTagged),
          source_lang: SOURCE_CODES[request.source] ?? request.source.toUpperCase(),
          target_lang: TARGET_CODES[request.target] ?? request.target.toUpperCase(),
          tag_handling: 'xml',
        },
        { authorization: `DeepL-Auth-Key ${settings.apiKey}` },
      )) as { translations?: Array<{ text?: unknown }> };
      const texts = Array.isArray(answer.translations) ? answer.translations.map((t) => t?.text) : [];
      if (texts.length !== segments.length || !texts.every((t): t is string => typeof t === 'string')) {
        throw new Error('deepl answered without one translation per text');
      }
      return texts.map(fromTagged);
    },
  };
}
