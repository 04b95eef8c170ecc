/** Bundling and validating OpenAPI documents with @scalar/openapi-parser: versions 2.0, 3.0, 3.1, YAML and JSON, external files. */

import { JobError } from '../../domain/jobs/job-error';
import { bundleOpenAPI } from '../../domain/openapi-specs/bundle';
import { FetchError } from '../../platform/net/fetch-error';

/** OPENAPI_BUNDLE_MAX_BYTES's default. */
const MAX_BYTES = 5 * 1024 * 1024;

const noFetch = async (url: string): Promise<string> => {
  throw new Error(`unexpected fetch of ${url}`);
};

describe('bundleOpenAPI', () => {
  it('accepts Swagger 2.0, OpenAPI 3.0 (YAML) and 3.1 (JSON)', async () => {
    const swagger = await bundleOpenAPI(
      JSON.stringify({ swagger: '2.0', info: { title: 'a', version: '1' }, paths: {} }),
      null,
      noFetch,
      MAX_BYTES,
    );
    expect([swagger.version, swagger.entrypoint]).toEqual(['2.0', 'openapi.json']);
    const v30 = await bundleOpenAPI(
      'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\n',
      'https://api.example/specs/v1.yml',
      noFetch,
      MAX_BYTES,
    );
    expect([v30.version, v30.entrypoint, Object.keys(v30.files)]).toEqual(['3.0', 'v1.yml', ['v1.yml']]);
    const v31 = await bundleOpenAPI(
      JSON.stringify({ openapi: '3.1.0', info: { title: 'a', version: '1' }, paths: {} }),
      null,
      noFetch,
      MAX_BYTES,
    );
    expect(v31.version).toBe('3.1');
    expect(v31.files['openapi.json']).toMatchObject({
      isEntrypoint: true,
      dir: './',
      references: [],
      filename: 'openapi.json',
    });
  });

  it('fetches external files (absolute, and relative to the source URL) through the given fetch, and hashes the bundle', async () => {
    const fetched: string[] = [];
    const files: Record<string, string> = {
      'https://api.example/specs/pet.yaml': 'Pet: {type: object}\n',
      'https://schemas.example/err.json': '{"Err": {"type": "string"}}',
    };
    const fetchText = async (url: string) => {
      fetched.push(url);
      return files[url];
    };
    const doc =
      'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: "pet.yaml#/Pet"}\n    Err: {$ref: "https://schemas.example/err.json#/Err"}\n';
    const bundle = await bundleOpenAPI(doc, 'https://api.example/specs/main.yaml', fetchText, MAX_BYTES);
    expect(fetched.sort()).toEqual(['https://api.example/specs/pet.yaml', 'https://schemas.example/err.json']);
    expect(Object.keys(bundle.files).sort()).toEqual(['https://schemas.example/err.json', 'main.yaml', 'pet.yaml']);
    expect(bundle.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await bundleOpenAPI(doc, 'https://api.example/specs/main.yaml', fetchText, MAX_BYTES)).hash).toBe(
      bundle.hash,
    );
  });

  it('a failed external fetch fails with its code; a broken document is a PARSE_ERROR listing every problem', async () => {
    const timeout = async () => {
      throw new FetchError('timeout', 'too slow');
    };
    const withRef =
      'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\ncomponents: {schemas: {X: {$ref: "https://slow.example/x.yaml"}}}\n';
    await expect(bundleOpenAPI(withRef, null, timeout, MAX_BYTES)).rejects.toMatchObject({ code: 'FETCH_TIMEOUT' });

    const failure = async (text: string) =>
      bundleOpenAPI(text, null, noFetch, MAX_BYTES).then(
        () => null,
        (e: unknown) => e as JobError,
      );
    const invalid = await failure(
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'x' },
        paths: { '/a': { get: { responses: 1 } }, '/b': { get: { responses: 'x' } } },
      }),
    );
    expect(invalid).toBeInstanceOf(JobError);
    expect(invalid!.code).toBe('PARSE_ERROR');
    expect(invalid!.messages.length).toBeGreaterThanOrEqual(2);
    expect(invalid!.messages.every((m) => m.code === 'invalid')).toBe(true);
    expect((await failure('openapi: 3.0.0\n  info: [\n'))!.messages[0].code).toBe('yaml-parse');
    expect((await failure('{"hello": "world"}'))!.messages[0].message).toMatch(/supported Swagger\/OpenAPI version/);
    expect((await failure('[1, 2]'))!.code).toBe('PARSE_ERROR');
    const unresolved = await failure(
      'openapi: 3.1.0\ninfo: {title: a, version: "1"}\npaths: {}\ncomponents: {schemas: {X: {$ref: "#/components/nothing/Missing"}}}\n',
    );
    expect(unresolved!.code).toBe('PARSE_ERROR');
  });
});

describe('YAML alias bombs and oversized bundles', () => {
  const HEAD = 'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\n';
  /** One anchored string and `aliases` aliases to it: `aliases` × `length` characters once expanded. */
  const bomb = (length: number, aliases: number) =>
    `x-payload: &p ${'x'.repeat(length)}\nx-copies:\n${'  - *p\n'.repeat(aliases)}`;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (e: unknown) => e as JobError,
    );

  it('an alias bomb, in the document or in a file it references, is a PARSE_ERROR at yaml’s alias limit', async () => {
    // 1,000 aliases: under the parser's own limit of 10,000, over yaml's default of 100
    const inDocument = await failure(bundleOpenAPI(HEAD + bomb(1000, 1000), null, noFetch, MAX_BYTES));
    expect(inDocument).toBeInstanceOf(JobError);
    expect(inDocument!.code).toBe('PARSE_ERROR');
    expect(inDocument!.messages).toEqual([{ code: 'yaml-parse', message: expect.stringMatching(/alias count/) }]);

    const url = 'https://api.example/bomb.yaml';
    const withRef = `${HEAD}components: {schemas: {X: {$ref: "${url}#/x-payload"}}}\n`;
    const inReference = await failure(bundleOpenAPI(withRef, null, async () => bomb(1000, 1000), MAX_BYTES));
    expect(inReference!.code).toBe('PARSE_ERROR');
    expect(inReference!.message).toContain(url);
    expect(inReference!.messages[0]).toEqual({ code: 'yaml-parse', message: expect.stringMatching(/alias count/) });
  });

  it('a bundle over the maximum is a PARSE_ERROR naming the limit and the exact size; one at it passes', async () => {
    const text = HEAD + bomb(1000, 90);
    const { json } = await bundleOpenAPI(text, null, noFetch, MAX_BYTES);
    const size = Buffer.byteLength(json);
    expect(size).toBeGreaterThan(90_000);
    await expect(bundleOpenAPI(text, null, noFetch, size)).resolves.toMatchObject({ json });
    const over = await failure(bundleOpenAPI(text, null, noFetch, size - 1));
    expect(over!.code).toBe('PARSE_ERROR');
    expect(over!.messages).toEqual([
      {
        code: 'too-large',
        message: `the bundle is ${size} bytes serialized, more than the ${size - 1} allowed (OPENAPI_BUNDLE_MAX_BYTES)`,
      },
    ]);
    // a bomb is counted only up to four times the maximum, and refused before the parser walks it
    const bomb99 = await failure(bundleOpenAPI(HEAD + bomb(10_000, 99), null, noFetch, 10_000));
    expect(bomb99!.messages[0].message).toMatch(
      /^the document is more than 40000 bytes serialized, more than the 10000/,
    );
    // an alias inside its own anchor cannot be serialized at all
    const cycle = await failure(bundleOpenAPI(`${HEAD}x-loop: &l {self: *l}\n`, null, noFetch, MAX_BYTES));
    expect(cycle!.code).toBe('PARSE_ERROR');
    expect(cycle!.messages[0].message).toMatch(/contains it/);
  });

  it('the files external $refs name share one byte budget, the maximum', async () => {
    const pet = `Pet: {type: object, description: "${'d'.repeat(600)}"}\n`;
    const asked: number[] = [];
    const fetchText = async (url: string, maxBytes: number) => {
      asked.push(maxBytes);
      if (pet.length > maxBytes) throw new FetchError('size', `${url}: body larger than ${maxBytes} bytes`);
      return pet;
    };
    const doc = `${HEAD}components:\n  schemas:\n    A: {$ref: "https://x.example/a.yaml#/Pet"}\n    B: {$ref: "https://x.example/b.yaml#/Pet"}\n`;
    const refused = await failure(bundleOpenAPI(doc, null, fetchText, 1000));
    expect(asked).toEqual([1000, 1000 - pet.length]);
    expect(refused!.code).toBe('FETCH_ERROR');
    expect(refused!.message).toContain(`may hold 1000 bytes together, ${1000 - pet.length} were left`);
  });
});
