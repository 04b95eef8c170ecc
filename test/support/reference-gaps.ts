/**
 * What the OpenAPI document leaves a reader to guess: operations without a description (a summary alone does not
 * teach who may call it or what it changes), and properties and parameters without a description. A property that
 * is a `$ref` is described by the component it names, when that component has a description.
 */

type Json = Record<string, any>;

export interface ReferenceGaps {
  /** `operationId` of each operation without a description */
  operations: string[];
  /** where each undescribed property or parameter is: `Space.urls.app`, `createSpace body.title`, `listSpaces ?limit` */
  properties: string[];
  /** properties and parameters counted in all */
  propertyCount: number;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function referenceGaps(document: Json): ReferenceGaps {
  const components: Json = document.components?.schemas ?? {};
  const gaps: ReferenceGaps = { operations: [], properties: [], propertyCount: 0 };
  const seen = new Set<object>();

  const describedRef = (schema: Json): boolean => {
    const ref: string | undefined = schema.$ref ?? schema.allOf?.find((s: Json) => s.$ref)?.$ref;
    return !!ref && !!components[ref.split('/').pop()!]?.description;
  };

  /** Walks the properties of `schema`, nested objects, items and alternatives included. */
  const walk = (schema: Json | undefined, where: string): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
      gaps.propertyCount++;
      if (!property.description && !describedRef(property)) gaps.properties.push(`${where}.${name}`);
      walk(property, `${where}.${name}`);
    }
    walk(schema.items, `${where}[]`);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
      walk(schema.additionalProperties, `${where}{}`);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const alternative of schema[key] ?? []) walk(alternative, where);
  };

  for (const [name, schema] of Object.entries<Json>(components)) walk(schema, name);
  for (const item of Object.values<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation: Json | undefined = item[method];
      if (!operation) continue;
      const id: string = operation.operationId;
      if (!operation.description) gaps.operations.push(id);
      for (const parameter of operation.parameters ?? []) {
        gaps.propertyCount++;
        if (!parameter.description && !parameter.schema?.description)
          gaps.properties.push(`${id} ${parameter.in === 'query' ? '?' : ''}${parameter.name}`);
      }
      for (const media of Object.values<Json>(operation.requestBody?.content ?? {})) walk(media.schema, `${id} body`);
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {}))
        for (const media of Object.values<Json>(response.content ?? {})) walk(media.schema, `${id} ${status}`);
    }
  }
  return gaps;
}
