/** One registry: every operation mounted by `defineOperation` is described here, and only those. */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  return registry;
}

/**
 * The generator renders a nullable enum as `type: [..., "null"]` with an enum that lacks null,
 * which JSON Schema then rejects for null values: add null to such enums.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as { type?: unknown; enum?: unknown[] };
  if (
    Array.isArray(schema.type) &&
    schema.type.includes('null') &&
    Array.isArray(schema.enum) &&
    !schema.enum.includes(null)
  ) {
    schema.enum = [...schema.enum, null]; // a copy: the array may be the zod enum's own options
  }
  Object.values(node).forEach(allowNullInNullableEnums);
}

export function generateDocument(registry: OpenAPIRegistry, serverUrl: string): object {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Documentation Platform Management API',
      version: '1.0.0',
      description:
        'Operations marked `x-extension: true` are additions to the GitBook API v1 operations this service implements: ' +
        'operations the product needs but GitBook does not show (creating organizations and spaces, reading the caller, ' +
        'issuing and revoking API tokens, writing content).',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
  });
  allowNullInNullableEnums(document);
  return document;
}
