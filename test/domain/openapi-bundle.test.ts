/** Bundling and validating OpenAPI documents with @scalar/openapi-parser: versions 2.0, 3.0, 3.1, YAML and JSON, external files. */

import { FetchError } from '../../domain/net/fetch-error';
import { bundleOpenAPI } from '../../domain/openapi-specs/bundle';
import { JobError } from '../../domain/processes/job-error';

const noFetch = async (url: string): Promise<string> => {
  throw new Error(`unexpected fetch of ${url}`);
};

describe('bundleOpenAPI', () => {
  it('accepts Swagger 2.0, OpenAPI 3.0 (YAML) and 3.1 (JSON)', async () => {
    const swagger = await bundleOpenAPI(
      JSON.stringify({ swagger: '2.0', info: { title: 'a', version: '1' }, paths: {} }),
      null,
      noFetch,
    );
    expect([swagger.version, swagger.entrypoint]).toEqual(['2.0', 'openapi.json']);
    const v30 = await bundleOpenAPI(
      'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\n',
      'https://api.example/specs/v1.yml',
      noFetch,
    );
    expect([v30.version, v30.entrypoint, Object.keys(v30.files)]).toEqual(['3.0', 'v1.yml', ['v1.yml']]);
    const v31 = await bundleOpenAPI(
      JSON.stringify({ openapi: '3.1.0', info: { title: 'a', version: '1' }, paths: {} }),
      null,
      noFetch,
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
    const bundle = await bundleOpenAPI(doc, 'https://api.example/specs/main.yaml', fetchText);
    expect(fetched.sort()).toEqual(['https://api.example/specs/pet.yaml', 'https://schemas.example/err.json']);
    expect(Object.keys(bundle.files).sort()).toEqual(['https://schemas.example/err.json', 'main.yaml', 'pet.yaml']);
    expect(bundle.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await bundleOpenAPI(doc, 'https://api.example/specs/main.yaml', fetchText)).hash).toBe(bundle.hash);
  });

  it('a failed external fetch fails with its code; a broken document is a PARSE_ERROR listing every problem', async () => {
    const timeout = async () => {
      throw new FetchError('timeout', 'too slow');
    };
    const withRef =
      'openapi: 3.0.3\ninfo: {title: a, version: "1"}\npaths: {}\ncomponents: {schemas: {X: {$ref: "https://slow.example/x.yaml"}}}\n';
    await expect(bundleOpenAPI(withRef, null, timeout)).rejects.toMatchObject({ code: 'FETCH_TIMEOUT' });

    const failure = async (text: string) =>
      bundleOpenAPI(text, null, noFetch).then(
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
