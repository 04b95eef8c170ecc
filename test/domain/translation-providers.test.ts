/**
 * The HTTP providers against local servers speaking their protocols: what each sends (endpoint, key,
 * language codes, placeholders), batching, pacing, back-off on 429 and 5xx (Retry-After honoured),
 * permanent failure on other 4xx, timeouts; keys never appear in an error.
 */

import { JobError } from '../../domain/jobs/job-error';
import { TRANSLATION_FAILURES } from '../../domain/translations/failures';
import { translationPrompt } from '../../domain/translations/providers/openai';
import { createTranslator, TranslationSettings } from '../../domain/translations/providers/translator';
import type { Segment } from '../../domain/translations/segments';
import { loadConfig } from '../../platform/config';
import { FakeProvider, Protocol } from '../support/fake-translation-provider';

const KEY = 'sk-test-secret-key-0123456789';
const base = loadConfig().translation;

function settings(protocol: Protocol, url: string, extra: Partial<TranslationSettings> = {}): TranslationSettings {
  return {
    ...base,
    provider: protocol,
    libretranslate: { url, apiKey: KEY },
    deepl: { url, apiKey: KEY },
    openai: { url, apiKey: KEY, model: 'test-model' },
    requestsPerSecond: 0,
    timeoutMs: 2000,
    retry: { attempts: 3, initialMs: 50, maxMs: 2000 },
    ...extra,
  };
}

const request = { source: 'en', target: 'pt-br', instructions: 'Keep **product names** in English.' };
const SEGMENTS: Segment[] = [['Run ', 0, ' & see ', 1, 'the guide', 2, '.'], ['Hello <world>']];
const SHOUTED: Segment[] = [['RUN ', 0, ' & SEE ', 1, 'THE GUIDE', 2, '.'], ['HELLO <WORLD>']];

const servers: FakeProvider[] = [];
async function fake(protocol: Protocol): Promise<FakeProvider> {
  const server = await new FakeProvider(protocol).start();
  servers.push(server);
  return server;
}
afterAll(() => {
  for (const s of servers) s.close();
});

describe('translation providers', () => {
  it('libretranslate: POST /translate with q[], mapped codes, format html and api_key', async () => {
    const lt = await fake('libretranslate');
    expect(await createTranslator(settings('libretranslate', lt.url)).translate(SEGMENTS, request)).toEqual(SHOUTED);
    expect(lt.requests).toHaveLength(1);
    expect(lt.requests[0].body).toEqual({
      q: ['Run <x id="0"/> &amp; see <x id="1"/>the guide<x id="2"/>.', 'Hello &lt;world&gt;'],
      source: 'en',
      target: 'pb',
      format: 'html',
      api_key: KEY,
    });
  });

  it('deepl: POST /v2/translate with DeepL-Auth-Key, text[], its language codes and xml tag handling', async () => {
    const deepl = await fake('deepl');
    expect(
      await createTranslator(settings('deepl', deepl.url)).translate(SEGMENTS, {
        ...request,
        source: 'pt-br',
        target: 'en',
      }),
    ).toEqual(SHOUTED);
    expect(deepl.requests[0].headers.authorization).toBe(`DeepL-Auth-Key ${KEY}`);
    expect(deepl.requests[0].body).toEqual({
      text: ['Run <x id="0"/> &amp; see <x id="1"/>the guide<x id="2"/>.', 'Hello &lt;world&gt;'],
      source_lang: 'PT',
      target_lang: 'EN-US',
      tag_handling: 'xml',
    });
  });

  it('openai: chat completions with the Bearer key, the model, and the instructions in the prompt', async () => {
    const openai = await fake('openai');
    expect(await createTranslator(settings('openai', openai.url)).translate(SEGMENTS, request)).toEqual(SHOUTED);
    const sent = openai.requests[0];
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toMatchObject({ model: 'test-model', temperature: 0, response_format: { type: 'json_object' } });
    expect(sent.body.messages[0]).toEqual({ role: 'system', content: translationPrompt(request) });
    expect(sent.body.messages[0].content).toContain('from English (en) to Brazilian Portuguese (pt-br)');
    expect(sent.body.messages[0].content).toContain('Keep **product names** in English.');
    expect(JSON.parse(sent.body.messages[1].content)).toEqual({
      segments: ['Run <x id="0"/> &amp; see <x id="1"/>the guide<x id="2"/>.', 'Hello &lt;world&gt;'],
    });
    // an answer that is not one translation per segment is an error (retried by the step)
    openai.scripted.push({
      status: 200,
      body: { choices: [{ message: { content: '{"translations": ["only one"]}' } }] },
    });
    await expect(createTranslator(settings('openai', openai.url)).translate(SEGMENTS, request)).rejects.toThrow(
      'openai answered without a JSON object of one translation per segment',
    );
  });

  it('batches by segments (and the provider limit) and characters, in order', async () => {
    const lt = await fake('libretranslate');
    const many: Segment[] = Array.from({ length: 120 }, (_, i) => [`segment ${i}`]);
    const out = await createTranslator(settings('libretranslate', lt.url, { batchSegments: 50 })).translate(
      many,
      request,
    );
    expect(out).toEqual(many.map(([t]) => [(t as string).toUpperCase()]));
    expect(lt.requests.map((r) => r.body.q.length)).toEqual([50, 50, 20]);
    const byChars = await fake('libretranslate');
    await createTranslator(settings('libretranslate', byChars.url, { batchChars: 25 })).translate(
      many.slice(0, 6),
      request,
    );
    expect(byChars.requests.map((r) => r.body.q.length)).toEqual([2, 2, 2]);
  });

  it('spaces requests to the configured rate', async () => {
    const lt = await fake('libretranslate');
    const many: Segment[] = Array.from({ length: 4 }, (_, i) => [`s${i}`]);
    await createTranslator(settings('libretranslate', lt.url, { batchSegments: 1, requestsPerSecond: 5 })).translate(
      many,
      request,
    );
    const at = lt.requests.map((r) => r.at);
    expect(at[3] - at[0]).toBeGreaterThanOrEqual(500); // three 200 ms slots, give or take the first connection
  });

  it('backs off on 429 (honouring Retry-After) and 5xx, then succeeds', async () => {
    const lt = await fake('libretranslate');
    lt.scripted.push(
      { status: 429, body: { error: 'Slowdown' }, headers: { 'retry-after': '1' } },
      { status: 503, body: { error: 'busy' } },
    );
    expect(await createTranslator(settings('libretranslate', lt.url)).translate(SEGMENTS, request)).toEqual(SHOUTED);
    const at = lt.requests.map((r) => r.at);
    expect(at).toHaveLength(3);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(90); // the second back-off step (2 x 50 ms)
  });

  it("fails permanently on another 4xx, at once, with the provider's words and never the key", async () => {
    const deepl = await fake('deepl');
    deepl.scripted.push({ status: 403, body: { message: `Wrong key ${KEY}` } });
    const failure = await createTranslator(settings('deepl', deepl.url))
      .translate(SEGMENTS, request)
      .catch((err) => err);
    expect(failure).toBeInstanceOf(JobError);
    expect(failure).toMatchObject({
      code: TRANSLATION_FAILURES.rejected,
      message: 'deepl refused the request (HTTP 403): Wrong key ***',
      messages: [{ code: 'HTTP_403' }],
    });
    expect(deepl.requests).toHaveLength(1);
    expect(JSON.stringify(failure.messages)).not.toContain(KEY);
    expect(failure.message).not.toContain(deepl.url);
  });

  it('gives up after the attempts on 5xx and timeouts (PROVIDER_UNAVAILABLE)', async () => {
    const lt = await fake('libretranslate');
    lt.scripted.push({ status: 500, body: 'boom' }, { status: 502 }, { status: 500 });
    await expect(
      createTranslator(settings('libretranslate', lt.url)).translate(SEGMENTS, request),
    ).rejects.toMatchObject({
      code: TRANSLATION_FAILURES.unavailable,
      message: 'libretranslate did not answer successfully after 3 attempts (last: HTTP 500: no explanation given)',
    });
    const slow = await fake('libretranslate');
    slow.delayMs = 1000;
    await expect(
      createTranslator(
        settings('libretranslate', slow.url, { timeoutMs: 200, retry: { attempts: 2, initialMs: 10, maxMs: 10 } }),
      ).translate(SEGMENTS, request),
    ).rejects.toMatchObject({
      code: TRANSLATION_FAILURES.unavailable,
      message: 'libretranslate did not answer successfully after 2 attempts (last: no answer within 200 ms)',
    });
    expect(slow.requests).toHaveLength(2);
  });
});
