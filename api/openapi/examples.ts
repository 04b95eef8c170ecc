/**
 * Each operation's example, as a test answered it (api/openapi/examples.json, recorded by the tests:
 * scripts/collect-examples.js): its request body and query, and its answer, shown beside the schemas they fill.
 * test/api/reference.test.ts holds every example to the document, so an example that stops being true fails.
 */
import recorded from './examples.json';

interface Example {
  request: { query?: Record<string, unknown>; body?: unknown };
  status: number;
  /** none: the operation answers without a JSON body */
  answer?: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked by shape, as OpenAPI defines it
type Json = Record<string, any>;

const EXAMPLES: Record<string, Example> = recorded;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Sets `example` on each operation's JSON request body, query parameters and answer, where one was recorded. */
export function attachExamples(document: Json): void {
  for (const item of Object.values<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation: Json | undefined = item[method];
      const example = operation && EXAMPLES[operation.operationId];
      if (!example) continue;
      const json = operation.requestBody?.content?.['application/json'];
      if (json && example.request.body !== undefined) json.example = example.request.body;
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'query' && example.request.query?.[parameter.name] !== undefined)
          parameter.example = example.request.query[parameter.name];
      const answer = operation.responses?.[String(example.status)]?.content?.['application/json'];
      if (answer && example.answer !== undefined) answer.example = example.answer;
    }
  }
}
