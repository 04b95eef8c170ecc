/**
 * The reference teaches: every operation says, beyond its summary, what it does, who may call it, what it changes
 * and which job it starts; every property and parameter says what it is; every operation shows an example request
 * and answer that a test really made (api/openapi/examples.json), and every example still fits the document.
 * `REFERENCE_GAPS=1` prints every gap.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { referenceGaps } from '../support/reference-gaps';
import { useServer } from '../support/server';

const server = useServer();

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

let document: Json;
beforeAll(async () => {
  document = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
});

/** Each operation with where its examples are, or should be. */
function operations(): Array<{ id: string; path: string; method: string; operation: Json }> {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      id: item[method].operationId,
      path,
      method,
      operation: item[method],
    })),
  );
}

describe('the reference', () => {
  it('describes every operation and every property', () => {
    const gaps = referenceGaps(document);
    if (process.env.REFERENCE_GAPS) process.stdout.write(`${JSON.stringify(gaps, null, 1)}\n`);
    expect(gaps.propertyCount).toBeGreaterThan(1000);
    expect({ operations: gaps.operations, properties: gaps.properties }).toEqual({ operations: [], properties: [] });
  });

  it('shows an example request and answer for every operation', () => {
    const missing = operations().flatMap(({ id, operation }) => {
      const answers = Object.entries<Json>(operation.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([, response]) => response.content?.['application/json'])
        .filter(Boolean);
      const body = operation.requestBody?.required ? operation.requestBody.content['application/json'] : undefined;
      return [
        ...(answers.length && !answers.some((a) => a.example !== undefined) ? [`${id}: answer`] : []),
        ...(body && body.example === undefined ? [`${id}: request body`] : []),
      ];
    });
    if (process.env.REFERENCE_GAPS) process.stdout.write(`${JSON.stringify(missing, null, 1)}\n`);
    expect(missing).toEqual([]);
  });

  it('holds every example to the schema beside it', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema(document, 'reference');
    const wrong: string[] = [];
    for (const { id, path, method, operation } of operations()) {
      const check = (where: string[], example: unknown, what: string) => {
        const valid = ajv.validate({ $ref: `reference#/${pointer('paths', path, method, ...where)}` }, example);
        if (!valid) wrong.push(`${id} ${what}: ${ajv.errorsText(ajv.errors)}`);
      };
      const body = operation.requestBody?.content?.['application/json'];
      if (body?.example !== undefined)
        check(['requestBody', 'content', 'application/json', 'schema'], body.example, 'request');
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const answer = response.content?.['application/json'];
        if (answer?.example !== undefined)
          check(['responses', status, 'content', 'application/json', 'schema'], answer.example, `answer ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('says in its info how to get a token, and where the tour is', () => {
    expect(document.info.description).toContain('Authorization: Bearer <token>');
    expect(document.info.description).toContain('bootstrap');
    expect(document.info.description).toContain('docs/tour.md');
  });
});
