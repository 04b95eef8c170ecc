/** The service's own OpenAPI document lists every implemented operation, and only those. */
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { createOrg } from '../factories';
import { useServer } from '../support/server';

const server = useServer();

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { operationId: string; 'x-extension'?: boolean; responses: object; security?: unknown[] }>
  >;
};

const SPEC_OPERATIONS = [
  'get /v1/spaces/{spaceId}/links',
  'get /v1/spaces/{spaceId}/search',
  'get /v1/orgs/{organizationId}/search',
  'get /v1/spaces/{spaceId}/content/page/{pageId}/links',
  'get /v1/spaces/{spaceId}/content/page/{pageId}/backlinks',
  'get /v1/spaces/{spaceId}/content/files/{fileId}/backlinks',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks',
  'get /v1/orgs',
  'get /v1/orgs/{organizationId}',
  'patch /v1/orgs/{organizationId}',
  'delete /v1/orgs/{organizationId}/link-invites/{inviteId}',
  'get /v1/email-domains/{emailDomain}/orgs',
  'get /v1/orgs/{organizationId}/members',
  'get /v1/orgs/{organizationId}/members/{userId}',
  'patch /v1/orgs/{organizationId}/members/{userId}',
  'delete /v1/orgs/{organizationId}/members/{userId}',
  'post /v1/orgs/{organizationId}/ping',
  'post /v1/orgs/{organizationId}/members/{userId}/sso',
  'get /v1/orgs/{organizationId}/members/{userId}/spaces',
  'get /v1/orgs/{organizationId}/members/{userId}/teams',
  'get /v1/orgs/{organizationId}/teams',
  'put /v1/orgs/{organizationId}/teams',
  'get /v1/orgs/{organizationId}/teams/{teamId}',
  'patch /v1/orgs/{organizationId}/teams/{teamId}',
  'delete /v1/orgs/{organizationId}/teams/{teamId}',
  'get /v1/orgs/{organizationId}/teams/{teamId}/members',
  'put /v1/orgs/{organizationId}/teams/{teamId}/members',
  'put /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  'delete /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}',
  'get /v1/orgs/{organizationId}/saml',
  'post /v1/orgs/{organizationId}/saml',
  'get /v1/orgs/{organizationId}/saml/{samlProviderId}',
  'patch /v1/orgs/{organizationId}/saml/{samlProviderId}',
  'delete /v1/orgs/{organizationId}/saml/{samlProviderId}',
  'get /v1/orgs/{organizationId}/sso',
  'get /v1/orgs/{organizationId}/collections',
  'post /v1/orgs/{organizationId}/collections',
  'get /v1/collections/{collectionId}',
  'patch /v1/collections/{collectionId}',
  'delete /v1/collections/{collectionId}',
  'get /v1/collections/{collectionId}/spaces',
  'post /v1/collections/{collectionId}/move',
  'post /v1/collections/{collectionId}/transfer',
  'get /v1/orgs/{organizationId}/spaces',
  'get /v1/spaces/{spaceId}',
  'patch /v1/spaces/{spaceId}',
  'delete /v1/spaces/{spaceId}',
  'post /v1/spaces/{spaceId}/duplicate',
  'post /v1/spaces/{spaceId}/restore',
  'post /v1/spaces/{spaceId}/move',
  'post /v1/spaces/{spaceId}/transfer',
  ...['/v1/spaces/{spaceId}/content', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content'].flatMap(
    (content) =>
      ['', '/pages', '/files', '/files/{fileId}', '/page/{pageId}'].map((suffix) => `get ${content}${suffix}`),
  ),
  'get /v1/spaces/{spaceId}/change-requests',
  'post /v1/spaces/{spaceId}/change-requests',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}',
  'patch /v1/spaces/{spaceId}/change-requests/{changeRequestId}',
  'post /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge',
  'post /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf',
  'post /v1/spaces/{spaceId}/content/template',
  'post /v1/spaces/{spaceId}/content/import',
  'post /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import',
  // comments: the same operations for a space and for a change request, plus two change-request-only reads
  ...['/v1/spaces/{spaceId}/comments', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments'].flatMap(
    (c) => [
      `get ${c}`,
      `post ${c}`,
      `get ${c}/{commentId}`,
      `put ${c}/{commentId}`,
      `delete ${c}/{commentId}`,
      `post ${c}/{commentId}/replies`,
      `get ${c}/{commentId}/replies/{commentReplyId}`,
      `put ${c}/{commentId}/replies/{commentReplyId}`,
      `delete ${c}/{commentId}/replies/{commentReplyId}`,
    ],
  ),
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies',
  'get /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters',
  // OpenAPI specifications
  ...[
    '',
    '/{specSlug}',
    '/{specSlug}/versions',
    '/{specSlug}/versions/latest',
    '/{specSlug}/versions/latest/content',
    '/{specSlug}/versions/{versionId}',
    '/{specSlug}/versions/{versionId}/content',
  ].map((p) => `get /v1/orgs/{organizationId}/openapi${p}`),
  'post /v1/orgs/{organizationId}/openapi',
  'put /v1/orgs/{organizationId}/openapi/{specSlug}',
  'patch /v1/orgs/{organizationId}/openapi/{specSlug}',
  'delete /v1/orgs/{organizationId}/openapi/{specSlug}',
  // translations
  'get /v1/orgs/{organizationId}/translations',
  'post /v1/orgs/{organizationId}/translations',
  'get /v1/orgs/{organizationId}/translations/{translationId}',
  'put /v1/orgs/{organizationId}/translations/{translationId}',
  'delete /v1/orgs/{organizationId}/translations/{translationId}',
  'post /v1/orgs/{organizationId}/translations/{translationId}/run',
  // sites: the spec's 26 operations
  'get /v1/orgs/{organizationId}/sites',
  'post /v1/orgs/{organizationId}/sites',
  ...((site) => [
    `get ${site}`,
    `patch ${site}`,
    `delete ${site}`,
    `get ${site}/adaptive-schema`,
    `put ${site}/adaptive-schema`,
    `get ${site}/adaptive-schema/template-conditions`,
    `get ${site}/published`,
    `get ${site}/sections`,
    `post ${site}/sections`,
    `patch ${site}/sections/{siteSectionId}`,
    `delete ${site}/sections/{siteSectionId}`,
    `post ${site}/sections/{siteSectionId}/move`,
    `get ${site}/section-groups`,
    `post ${site}/section-groups`,
    `patch ${site}/section-groups/{siteSectionGroupId}`,
    `delete ${site}/section-groups/{siteSectionGroupId}`,
    `post ${site}/section-groups/{siteSectionGroupId}/sections`,
    `delete ${site}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}`,
    `post ${site}/section-groups/{siteSectionGroupId}/move`,
    `get ${site}/site-spaces`,
    `post ${site}/site-spaces`,
    `patch ${site}/site-spaces/{siteSpaceId}`,
    `delete ${site}/site-spaces/{siteSpaceId}`,
    `post ${site}/site-spaces/{siteSpaceId}/move`,
  ])('/v1/orgs/{organizationId}/sites/{siteId}'),
  // integrations: the spec's 12 operations
  'get /v1/integrations',
  ...((integration) => [
    `get ${integration}`,
    `post ${integration}`,
    `delete ${integration}`,
    `get ${integration}/installations`,
    `post ${integration}/installations`,
    `get ${integration}/events`,
    `get ${integration}/events/{eventId}`,
    `get ${integration}/spaces`,
    `get ${integration}/sites`,
    `put ${integration}/dev`,
    `delete ${integration}/dev`,
  ])('/v1/integrations/{integrationName}'),
];

describe('GET /v1/openapi.json', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method} ${path}`, path, method, op })),
    );

  it('is OpenAPI 3.1 and includes every operation of the spec tables built so far', () => {
    expect(doc.openapi).toBe('3.1.0');
    const listed = new Set(operations().map((o) => o.key));
    for (const op of SPEC_OPERATIONS) expect(listed).toContain(op);
  });

  it('marks every operation outside the spec tables as an extension', () => {
    const spec = new Set(SPEC_OPERATIONS);
    for (const { key, op } of operations()) {
      if (!spec.has(key)) expect({ key, extension: op['x-extension'] }).toEqual({ key, extension: true });
      expect(op.operationId).toBeTruthy();
      expect(op.responses).toBeDefined();
    }
  });

  it('lists only operations that are mounted: each answers 401 without a token, not 404', async () => {
    for (const { path, method, op } of operations()) {
      const url = path.replace(/\{\w+\}/g, 'someid');
      const res = await (request(server.app) as unknown as Record<string, (u: string) => request.Test>)[method](url);
      // an operation that takes no token (security: [], or an empty requirement among them: the token is optional)
      // answers without one; mounted, it is still no unknown route
      if (op.security?.length === 0 || op.security?.some((r) => Object.keys(r as object).length === 0))
        expect({ op: `${method} ${path}`, message: res.body.error?.message }).not.toEqual({
          op: `${method} ${path}`,
          message: 'route not found',
        });
      else expect({ op: `${method} ${path}`, status: res.status }).toEqual({ op: `${method} ${path}`, status: 401 });
    }
  });

  it('answers 404 with the error body for an unknown route', async () => {
    const res = await request(server.app).get('/v1/nothing-here').expect(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'route not found' } });
  });
});

describe('the OpenAPI document describes what the service answers', () => {
  let doc: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
  beforeAll(async () => {
    doc = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
  });

  it('lets nullable enums be null', () => {
    const level = doc.components.schemas.Space.properties.defaultLevel;
    expect(level.enum).toContain(null);
    expect(level.enum).toContain('admin');
  });

  it('a nullable object field admits null (comment resolvedBy)', async () => {
    // zod-to-openapi rendered `schema.nullable()` of a registered schema as allOf [ref, type [object, null]]: no null passes
    const nullableRefs: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const allOf = (node as { allOf?: { $ref?: string; type?: unknown }[] }).allOf;
      if (allOf?.some((s) => Array.isArray(s.type) && s.type.includes('null'))) nullableRefs.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc, '');
    expect(nullableRefs).toEqual([]);
    expect(doc.components.schemas.Comment.properties.resolvedBy.anyOf).toContainEqual({ type: 'null' });
    // GitBook's optional references are left out when empty, not null
    expect(doc.components.schemas.SamlProvider.required).not.toContain('defaultTeam');
    const defaultTeam = JSON.stringify(doc.components.schemas.SamlProvider.properties.defaultTeam);
    expect(defaultTeam).toContain('#/components/schemas/Team');
    expect(defaultTeam).not.toContain('null');

    // real answers with null validate against their declared schemas
    const { org, admin } = await createOrg(server.ds);
    const as = server.as(admin.token);
    const saml = await as.post(`/v1/orgs/${org.id}/saml`).send({ label: 'Okta' }).expect(201);
    const space = await as.post(`/v1/orgs/${org.id}/spaces`).send({ title: 'Space' }).expect(201);
    const comment = await as
      .post(`/v1/spaces/${space.body.id}/comments`)
      .send({ body: { markdown: 'Hi' } })
      .expect(200);
    expect(saml.body).not.toHaveProperty('defaultTeam');
    expect(comment.body.resolvedBy).toBeNull();
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...doc, $id: 'openapi' });
    for (const [name, body] of [
      ['SamlProvider', saml.body],
      ['Comment', comment.body],
    ]) {
      const validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      expect({ name, valid: validate(body), errors: validate.errors ?? null }).toEqual({
        name,
        valid: true,
        errors: null,
      });
    }
  });

  it('requires a body only where an empty one is refused, and documents Location on creations', () => {
    expect(doc.paths['/v1/orgs/{organizationId}/collections'].post.requestBody.required).toBe(false);
    expect(doc.paths['/v1/orgs'].post.requestBody.required).toBe(true);
    expect(doc.paths['/v1/orgs'].post.responses['201'].headers.Location).toBeDefined();
    expect(doc.paths['/v1/user/tokens'].post.responses['201'].headers).toBeUndefined();
  });
});

describe('the OpenAPI document carries the body rules the validation applies', () => {
  let doc: { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
  beforeAll(async () => {
    doc = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
  });
  const body = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;

  it("states the site type enum, the authors' id rule and the adaptive schema's rules", () => {
    const query = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(query('/v1/orgs/{organizationId}/sites', 'type')).toMatchObject({
      type: 'array',
      items: { type: 'string', enum: ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] },
      maxItems: 100,
    });
    expect(query('/v1/spaces/{spaceId}/comments', 'authors').items).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 64,
      pattern: expect.any(String),
    });
    const jsonSchema = body('/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', 'put').properties.jsonSchema;
    expect(jsonSchema).toMatchObject({
      type: 'object',
      required: ['type', 'properties', 'additionalProperties'],
      properties: {
        type: { const: 'object' },
        additionalProperties: { const: false },
        properties: { additionalProperties: { $ref: '#/components/schemas/AdaptiveSchemaClaim' } },
      },
      additionalProperties: false,
    });
    expect(doc.components.schemas.AdaptiveSchemaClaim).toMatchObject({
      required: ['type', 'description'],
      properties: { type: { enum: ['boolean', 'string', 'number', 'array', 'object'] } },
    });
    // the document's rules are the validation's: a schema they admit is taken
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...doc, $id: 'openapi' });
    const valid = ajv.compile({
      $ref: 'openapi#/paths/~1v1~1orgs~1{organizationId}~1sites~1{siteId}~1adaptive-schema/put/requestBody/content/application~1json/schema/properties/jsonSchema',
    });
    expect(
      valid({
        type: 'object',
        properties: { plan: { type: 'string', description: 'the plan', enum: ['free', 'pro'] } },
        additionalProperties: false,
      }),
    ).toBe(true);
    expect(valid({ properties: {}, additionalProperties: false })).toBe(false);
  });

  it('a position has exactly one of before and after', () => {
    expect(doc.components.schemas.Position.oneOf).toEqual([{ required: ['before'] }, { required: ['after'] }]);
  });

  it('a move has parent or position, a space transfer organization or parent', () => {
    for (const path of ['/v1/spaces/{spaceId}/move', '/v1/collections/{collectionId}/move']) {
      expect(body(path, 'post').anyOf).toEqual([{ required: ['parent'] }, { required: ['position'] }]);
    }
    expect(body('/v1/spaces/{spaceId}/transfer', 'post').anyOf).toEqual([
      { required: ['organization'] },
      { required: ['parent'] },
    ]);
  });

  it('a page PATCH has at least one field', () => {
    const patches = Object.entries(doc.paths).filter(
      ([path, ops]) => path.endsWith('/content/page/{pageId}') && ops.patch,
    );
    expect(patches.length).toBeGreaterThan(0);
    for (const [path] of patches) expect(body(path, 'patch').minProperties).toBe(1);
  });

  it('a comment on a node or table cell names its page', () => {
    const create = body('/v1/spaces/{spaceId}/comments', 'post');
    expect(create.anyOf).toEqual([
      { required: ['page'] },
      { not: { anyOf: [{ required: ['node'] }, { required: ['tableCell'] }] } },
    ]);
  });

  it('a download link expiry is a non-negative integer', () => {
    const expires = doc.paths['/v1/blobs/{key}'].get.parameters.find((p: { name: string }) => p.name === 'expires');
    expect(expires.schema).toMatchObject({ type: 'integer', minimum: 0 });
  });

  it('text fields carry their code point limits and the control character rule', () => {
    const title = body('/v1/orgs/{organizationId}/spaces', 'post').properties.title;
    expect(title).toMatchObject({ type: 'string', minLength: 1, maxLength: 50 });
    const pattern = new RegExp(title.pattern);
    expect(pattern.test('\u{1F600} Docs')).toBe(true);
    for (const c of ['\u0000', '\u202e', '\n']) expect(pattern.test(`a${c}b`)).toBe(false);
    const markdown = new RegExp(body('/v1/spaces/{spaceId}/content/pages', 'post').properties.markdown.pattern);
    expect(markdown.test('a\n\tb')).toBe(true);
    expect(markdown.test('a\u2066b')).toBe(false);
  });
});
