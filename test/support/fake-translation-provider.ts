/**
 * A local HTTP server on loopback speaking one translation provider's protocol (LibreTranslate,
 * DeepL or OpenAI chat completions). It "translates" by upper-casing the text outside tags and
 * entities, records every request, and can be scripted: answers to give first (429, 403 ...), a
 * delay, an outage, or a gate that holds requests until the test opens it.
 */
import http from 'http';
import type { AddressInfo } from 'net';

export type Protocol = 'libretranslate' | 'deepl' | 'openai';

export interface RecordedRequest {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Upper-cases text, leaving `<x id="N"/>` tags and entities as they are. */
export const shout = (text: string) =>
  text.replace(
    /(<[^>]*>|&[#\w]+;)|([^<&]+)/g,
    (_m, kept: string | undefined, words: string | undefined) => kept ?? words!.toUpperCase(),
  );

function answer(protocol: Protocol, body: any): unknown {
  switch (protocol) {
    case 'libretranslate':
      return { translatedText: (body.q as string[]).map(shout) };
    case 'deepl':
      return { translations: (body.text as string[]).map((t) => ({ detected_source_language: 'EN', text: shout(t) })) };
    case 'openai': {
      const { segments } = JSON.parse(body.messages[1].content) as { segments: string[] };
      return {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: JSON.stringify({ translations: segments.map(shout) }) },
            finish_reason: 'stop',
          },
        ],
      };
    }
  }
}

const PATHS: Record<Protocol, string> = {
  libretranslate: '/translate',
  deepl: '/v2/translate',
  openai: '/v1/chat/completions',
};

export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  /** Answers given (in order) before translating normally. */
  readonly scripted: ScriptedAnswer[] = [];
  /** Milliseconds each answer waits. */
  delayMs = 0;
  /** While set, a request arriving is answered with this status (after the gate), whatever is scripted. */
  outage: number | null = null;
  /** Requests arriving while closed wait until `open()`. */
  private gate: Promise<void> | null = null;
  private release: () => void = () => {};
  private server!: http.Server;
  url = '';

  constructor(readonly protocol: Protocol) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', async () => {
        const record: RecordedRequest = {
          at: Date.now(),
          path: req.url ?? '',
          headers: req.headers,
          body: raw ? JSON.parse(raw) : null,
        };
        this.requests.push(record);
        const outage = this.outage;
        if (this.gate) await this.gate;
        if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
        if (record.path !== PATHS[this.protocol]) return void res.writeHead(404).end('{"error":"not found"}');
        if (outage) return void res.writeHead(outage).end('{"error":"the service is unavailable"}');
        const scripted = this.scripted.shift();
        if (scripted)
          return void res
            .writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers })
            .end(JSON.stringify(scripted.body ?? {}));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer(this.protocol, record.body)));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.url = this.protocol === 'openai' ? `${base}/v1` : base;
    return this;
  }

  close(): void {
    this.open();
    this.server.closeAllConnections();
    this.server.close();
  }

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.gate = null;
    this.release();
  }

  /** Resolves once `count` requests arrived. */
  async received(count: number, timeoutMs = 30000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.requests.length < count) {
      if (Date.now() > deadline)
        throw new Error(`${this.protocol}: ${this.requests.length} of ${count} requests arrived`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
