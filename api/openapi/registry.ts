/** One registry: every operation mounted by `defineOperation` is described here, and only those. */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  return registry;
}

export function generateDocument(registry: OpenAPIRegistry, serverUrl: string): object {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Documentation Platform Management API',
      version: '1.0.0',
      description: 'Operations marked `x-extension: true` are additions to the product specification (DESIGN §3).',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
  });
}
