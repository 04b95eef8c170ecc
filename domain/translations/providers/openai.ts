/**
 * The `openai` provider: an OpenAI-compatible chat-completions endpoint (POST {url}/chat/completions,
 * Bearer key when one is configured). The system prompt asks for a translation that keeps the
 * placeholders and carries the translation's instructions; the segments go as a JSON object and come
 * back as `{"translations": [...]}`, one string per segment.
 */
import type { Segment } from '../segments';
import type { ProviderHttp } from './http';
import type { TranslationProvider, TranslationRequest } from './provider';
import { fromTagged, toTagged } from './tags';

const names = new Intl.DisplayNames(['en'], { type: 'language' });
const languageName = (code: string) => {
  try {
    return `${names.of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
};

export function translationPrompt(request: TranslationRequest): string {
  const lines = [
    `You translate documentation from ${languageName(request.source)} to ${languageName(request.target)}.`,
    'The user sends a JSON object {"segments": [...]}: translate each string and answer with the JSON object {"translations": [...]}, one string per segment, in the same order.',
    'Each string is text with markdown emphasis; keep every <x id="N"/> tag exactly as written (they stand for code, links and other content that must not change), moving it only where the grammar of the translation needs it. Translate nothing else than the text, add nothing.',
  ];
  if (request.instructions.trim())
    lines.push('', 'Instructions from the documentation team:', request.instructions.trim());
  return lines.join('\n');
}

export function openAIProvider(
  settings: { url: string; apiKey: string; model: string },
  http: ProviderHttp,
): TranslationProvider {
  const endpoint = `${settings.url.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: 'openai',
    maxSegments: 100,
    async translateBatch(segments, request): Promise<Segment[]> {
      const answer = (await http.postJson(
        endpoint,
        {
          model: settings.model,
          temperature: 0,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: translationPrompt(request) },
            { role: 'user', content: JSON.stringify({ segments: segments.map(toTagged) }) },
          ],
        },
        settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      )) as { choices?: Array<{ message?: { content?: unknown } }> };
      const content = answer.choices?.[0]?.message?.content;
      let texts: unknown;
      try {
        texts =
          typeof content === 'string' ? (JSON.parse(content) as { translations?: unknown }).translations : undefined;
      } catch {
        texts = undefined;
      }
      if (!Array.isArray(texts) || texts.length !== segments.length || !texts.every((t) => typeof t === 'string')) {
        throw new Error('openai answered without a JSON object of one translation per segment');
      }
      return (texts as string[]).map(fromTagged);
    },
  };
}
