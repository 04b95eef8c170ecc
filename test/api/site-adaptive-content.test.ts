/**
 * Adaptive content and visitor authentication: the adaptive schema and its rules,
 * template conditions, conditions checked against the schema, the visitor token signing key, and the
 * published structure as visitors with claims see it.
 */
import { SignJWT } from 'jose';
import request from 'supertest';
import { SitePublishingAuth } from '../../entities/SitePublishingAuth';
import { addMember, createOrg, OrgFixture } from '../factories';
import { Json, newSpace } from '../support/api';
import { useServer } from '../support/server';
import { newSite, outline, sitesPath } from '../support/sites';

const server = useServer();

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'Whether the visitor is a Beta user.' },
    plan: { type: 'string', description: 'The plan of the visitor.', enum: ['free', 'pro'] },
    name: { type: 'string', description: 'The name of the visitor.' },
    seats: { type: 'number', description: 'Seats bought.' },
    teams: { type: 'array', description: 'Teams of the visitor.', items: { type: 'string', description: 'a team' } },
    org: {
      type: 'object',
      description: 'The organization of the visitor.',
      properties: { admin: { type: 'boolean', description: 'An admin of it.' } },
      additionalProperties: false,
    },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { language: { type: 'string', description: 'The language of the visitor.', enum: ['en', 'fr'] } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

interface AdaptiveSite {
  fx: OrgFixture;
  base: string;
  site: Json;
  sections: Record<string, Json>;
}

/**
 * A published site with an adaptive schema and four sections: Guide (for everyone), Beta (beta users),
 * Plans (its "Pro" variant for the pro plan) and Français (unsigned language fr).
 */
async function adaptiveSite(visibility = 'visitor-auth'): Promise<AdaptiveSite> {
  const fx = await createOrg(server.ds);
  const as = server.as(fx.admin.token);
  const space = async (title: string) => (await newSpace(server, fx.admin, fx.org.id, { title })).id;
  const site = await newSite(server, fx.admin, fx.org.id, { title: 'Adaptive docs', visibility, spaces: [] });
  const base = `${sitesPath(fx.org.id)}/${site.id}`;
  await as
    .patch(base)
    .send({ adaptiveContent: { enabled: true } })
    .expect(200);
  await as.put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(200);
  const sections: Record<string, Json> = {};
  for (const title of ['Guide', 'Beta', 'Plans', 'Français'])
    sections[title] = (
      await as
        .post(`${base}/sections`)
        .send({ spaceId: await space(title), title })
        .expect(201)
    ).body;
  const pro = (
    await as
      .post(`${base}/site-spaces`)
      .send({ spaceId: await space('Pro'), sectionId: sections.Plans.id })
      .expect(201)
  ).body;
  await as.patch(`${base}/sections/${sections.Beta.id}`).send({ condition: 'visitor.claims.isBetaUser' }).expect(200);
  await as.patch(`${base}/site-spaces/${pro.id}`).send({ condition: 'visitor.claims.plan === "pro"' }).expect(200);
  await as
    .patch(`${base}/sections/${sections.Français.id}`)
    .send({ condition: 'visitor.claims.unsigned.language == "fr"' })
    .expect(200);
  await as.post(`${base}/publish`).expect(200);
  return { fx, base, site, sections };
}

async function signingKey(a: AdaptiveSite): Promise<string> {
  return (await server.as(a.fx.admin.token).get(`${a.base}/publishing/auth`).expect(200)).body.privateKey;
}

async function visitorToken(key: string, claims: Record<string, unknown>, expiresIn = '1h'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(key));
}

describe('the adaptive schema', () => {
  it('is set, read back and turned into template conditions', async () => {
    const fx = await createOrg(server.ds);
    const site = await newSite(server, fx.admin, fx.org.id, { spaces: 'empty' });
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    const as = server.as(fx.admin.token);
    expect((await as.get(`${base}/adaptive-schema`).expect(404)).body.error.message).toBe('adaptive schema not found');
    expect((await as.get(`${base}/adaptive-schema/template-conditions`).expect(200)).body).toEqual({ items: [] });

    const put = (await as.put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(200)).body;
    expect(put).toEqual({ object: 'site-adaptive-schema', jsonSchema: SCHEMA, updatedAt: expect.any(String) });
    expect((await as.get(`${base}/adaptive-schema`).expect(200)).body).toEqual(put);

    const templates = (await as.get(`${base}/adaptive-schema/template-conditions`).expect(200)).body.items;
    expect(templates).toEqual([
      {
        description: 'isBetaUser is true: Whether the visitor is a Beta user.',
        condition: 'visitor.claims.isBetaUser == true',
      },
      {
        description: 'plan is "free" (one of "free", "pro"): The plan of the visitor.',
        condition: 'visitor.claims.plan == "free"',
      },
      { description: 'org.admin is true: An admin of it.', condition: 'visitor.claims.org.admin == true' },
      {
        description: 'unsigned.language is "en" (one of "en", "fr"): The language of the visitor.',
        condition: 'visitor.claims.unsigned.language == "en"',
      },
    ]);
    // every template is a condition the site accepts
    const section = (await as.post(`${base}/sections`).send({ spaceId: null }).expect(201)).body;
    for (const { condition } of templates)
      await as.patch(`${base}/sections/${section.id}`).send({ condition }).expect(200);
  });

  it('refuses a schema outside the rules with a 400 naming the JSON pointer', async () => {
    const fx = await createOrg(server.ds);
    const site = await newSite(server, fx.admin, fx.org.id, { spaces: 'empty' });
    const path = `${sitesPath(fx.org.id)}/${site.id}/adaptive-schema`;
    const schema = (properties: object, rest: object = {}) => ({
      type: 'object',
      properties,
      additionalProperties: false,
      ...rest,
    });
    const refused: Array<[unknown, string]> = [
      [schema({}, { additionalProperties: true }), 'jsonSchema/additionalProperties: must be false'],
      [schema({}, { type: 'array' }), 'jsonSchema/type: must be "object"'],
      [
        schema({}, { $schema: 'https://json-schema.org/draft/2020-12/schema' }),
        'jsonSchema/$schema: must be "http://json-schema.org/draft-07/schema#"',
      ],
      [{ type: 'object', properties: {} }, 'jsonSchema/additionalProperties: is required'],
      [schema({}, { required: ['a'] }), 'jsonSchema/required: is not allowed here'],
      [schema({ beta: { type: 'boolean' } }), 'jsonSchema/properties/beta/description: is required'],
      [
        schema({ beta: { type: 'date', description: 'd' } }),
        'jsonSchema/properties/beta/type: must be one of boolean, string, number, array, object',
      ],
      [
        schema({ beta: { type: 'boolean', description: 'd', default: true } }),
        'jsonSchema/properties/beta/default: is not allowed here',
      ],
      [
        schema({ plan: { type: 'string', description: 'd', enum: [] } }),
        'jsonSchema/properties/plan/enum: must have at least 1 item',
      ],
      [
        schema({ plan: { type: 'string', description: 'd', enum: ['a', 'a'] } }),
        'jsonSchema/properties/plan/enum: must not repeat a value',
      ],
      [
        schema({ plan: { type: 'string', description: 'd', enum: [1] } }),
        'jsonSchema/properties/plan/enum/0: must be string',
      ],
      [schema({ tags: { type: 'array', description: 'd' } }), 'jsonSchema/properties/tags/items: is required'],
      [
        schema({ tags: { type: 'array', description: 'd', items: { type: 'array', description: 'd' } } }),
        'jsonSchema/properties/tags/items/type: must be one of boolean, string, number',
      ],
      [
        schema({ org: { type: 'object', description: 'd', properties: {} } }),
        'jsonSchema/properties/org/additionalProperties: is required',
      ],
      [
        schema({
          org: {
            type: 'object',
            description: 'd',
            properties: { x: { type: 'null', description: 'd' } },
            additionalProperties: false,
          },
        }),
        'jsonSchema/properties/org/properties/x/type: must be one of boolean, string, number, array, object',
      ],
      [
        schema({ 'has-dash': { type: 'boolean', description: 'd' } }),
        'jsonSchema/properties/has-dash: a claim name must be a JavaScript identifier of at most 100 characters (conditions read visitor.claims.<name>)',
      ],
      [
        schema({ unsigned: { type: 'boolean', description: 'd' } }),
        'jsonSchema/properties/unsigned/properties: is required',
      ],
      [
        schema({ unsigned: { type: 'boolean', description: 'd', properties: {}, additionalProperties: false } }),
        'jsonSchema/properties/unsigned/type: must be "object"',
      ],
      [
        schema({ unsigned: { type: 'object', description: 'mine', properties: {}, additionalProperties: false } }),
        'jsonSchema/properties/unsigned/description: must be "Unsigned claims of the site visitor."',
      ],
      ['not an object', 'jsonSchema: must be an object, not string'],
    ];
    for (const [jsonSchema, message] of refused) {
      const res = await server.as(fx.admin.token).put(path).send({ jsonSchema }).expect(400);
      expect(res.body.error.message).toBe(message);
    }
    await server.as(fx.admin.token).put(path).send({}).expect(400);
    await server.as(fx.admin.token).put(path).send({ jsonSchema: SCHEMA, extra: 1 }).expect(400);
    await server.as(fx.admin.token).get(path).expect(404);
  });

  it('is read by members, replaced by admins: 401, 404 for another organization, 403 for other members', async () => {
    const fx = await createOrg(server.ds);
    const site = await newSite(server, fx.admin, fx.org.id, { spaces: 'empty' });
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    await server.as(fx.admin.token).put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(200);
    const reader = await addMember(server.ds, fx.org, 'read');
    const editor = await addMember(server.ds, fx.org, 'edit');
    const outsider = (await createOrg(server.ds)).admin;
    for (const path of [`${base}/adaptive-schema`, `${base}/adaptive-schema/template-conditions`]) {
      await request(server.app).get(path).expect(401);
      await server.as(outsider.token).get(path).expect(404);
      await server.as(reader.token).get(path).expect(200);
    }
    await request(server.app).put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(401);
    await server.as(outsider.token).put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(404);
    await server.as(editor.token).put(`${base}/adaptive-schema`).send({ jsonSchema: SCHEMA }).expect(403);
    await server
      .as(fx.admin.token)
      .get(`${sitesPath(fx.org.id)}/${site.id.slice(0, -1)}${site.id.endsWith('x') ? 'y' : 'x'}/adaptive-schema`)
      .expect(404);
  });
});

describe('conditions', () => {
  it('are parsed and checked against the schema: a declared claim of a type conditions cannot test is a 400 naming it; an undeclared one reads as absent (false)', async () => {
    const { fx, base, sections } = await adaptiveSite('public');
    const as = server.as(fx.admin.token);
    const section = `${base}/sections/${sections.Guide.id}`;
    const siteSpace = `${base}/site-spaces/${sections.Guide.siteSpaces[0].id}`;
    const refused: Array<[string, string]> = [
      [
        'visitor.claims.name == "Ada"',
        'condition: visitor.claims.name is a string without an enum: conditions test boolean claims and string claims with an enum',
      ],
      [
        'visitor.claims.seats',
        'condition: visitor.claims.seats is a number: conditions test boolean claims and string claims with an enum',
      ],
      [
        'visitor.claims.org',
        'condition: visitor.claims.org is an object: conditions test boolean claims and string claims with an enum',
      ],
      ['visitor.claims.plan == "gold"', 'condition: "gold" is not a value of visitor.claims.plan ("free", "pro")'],
      [
        'visitor.claims.isBetaUser == "yes"',
        'condition: visitor.claims.isBetaUser is a boolean: compare it with true or false',
      ],
      ['visitor.claims.isBetaUser &&', 'condition: does not parse: Expected expression after && at character 28'],
      [
        'process.exit(1)',
        'condition: call expressions are not supported (use claims, literals, !, ==, ===, !=, !==, && and ||)',
      ],
      ['user.isBetaUser', 'condition: user is unknown: conditions read visitor.claims.<name>'],
      ['visitor.claims.plan = "pro"', 'condition: does not parse: Unexpected "=" at character 20'],
      ['x'.repeat(1025), 'condition: must be at most 1024 characters'],
      ['', 'condition: must be at least 1 character'],
    ];
    for (const [condition, message] of refused) {
      for (const path of [section, siteSpace]) {
        const res = await as.patch(path).send({ condition }).expect(400);
        expect(res.body.error.message).toBe(message);
      }
    }
    const accepted = [
      // claims the schema does not declare, as GitBook's client sends them
      'visitor.claims.isBeta',
      'visitor.claims.unsigned.plan == "pro"',
      'visitor.claims.org.admin || visitor.claims["plan"] !== "free"',
      '!(visitor.claims.isBetaUser == false) && visitor.claims.unsigned.language === "en"',
      'true',
    ];
    for (const condition of accepted)
      expect((await as.patch(section).send({ condition }).expect(200)).body.condition).toBe(condition);
    expect((await as.patch(section).send({ condition: null }).expect(200)).body).not.toHaveProperty('condition');
  });

  it('are accepted on a site without an adaptive schema: every claim reads as absent', async () => {
    const fx = await createOrg(server.ds);
    const site = await newSite(server, fx.admin, fx.org.id, { spaces: 'empty' });
    const section = (
      await server
        .as(fx.admin.token)
        .post(`${sitesPath(fx.org.id)}/${site.id}/sections`)
        .send({ spaceId: null })
        .expect(201)
    ).body;
    const res = await server
      .as(fx.admin.token)
      .patch(`${sitesPath(fx.org.id)}/${site.id}/sections/${section.id}`)
      .send({ condition: 'visitor.claims.isBetaUser' })
      .expect(200);
    expect(res.body.condition).toBe('visitor.claims.isBetaUser');
  });

  it('keep the schema from giving a claim they test a type they cannot test: 409 listing them; dropping a claim is allowed (it then reads as absent)', async () => {
    const { fx, base, sections } = await adaptiveSite('public');
    const as = server.as(fx.admin.token);
    const withoutBetaAndPlan = { ...SCHEMA, properties: { ...SCHEMA.properties } } as Json;
    delete withoutBetaAndPlan.properties.isBetaUser;
    withoutBetaAndPlan.properties.plan = { type: 'string', description: 'free text now' };
    const res = await as.put(`${base}/adaptive-schema`).send({ jsonSchema: withoutBetaAndPlan }).expect(409);
    const pro =
      sections.Plans.siteSpaces.length === 2
        ? sections.Plans.siteSpaces[1]
        : (await as.get(`${base}/sections`).expect(200)).body.items.find((s: Json) => s.id === sections.Plans.id)
            .siteSpaces[1];
    expect(res.body.error.conditions).toEqual([
      {
        object: 'site-space',
        id: pro.id,
        condition: 'visitor.claims.plan === "pro"',
        problems: [
          'visitor.claims.plan is a string without an enum: conditions test boolean claims and string claims with an enum',
        ],
      },
    ]);
    expect(res.body.error.message).toBe(
      `jsonSchema: a condition reads attributes this schema declares with a type conditions cannot test: site-space ${pro.id} (visitor.claims.plan === "pro")`,
    );
    // nothing changed
    expect((await as.get(`${base}/adaptive-schema`).expect(200)).body.jsonSchema).toEqual(SCHEMA);

    // once the conditions no longer read them, the attributes may go
    await as.patch(`${base}/sections/${sections.Beta.id}`).send({ condition: null }).expect(200);
    await as.patch(`${base}/site-spaces/${pro.id}`).send({ condition: 'visitor.claims.org.admin' }).expect(200);
    expect(
      (await as.put(`${base}/adaptive-schema`).send({ jsonSchema: withoutBetaAndPlan }).expect(200)).body.jsonSchema,
    ).toEqual(withoutBetaAndPlan);
  });
});

describe('visitor authentication', () => {
  it('opens a published visitor-auth site to a caller of any organization holding a signed token, its structure filtered by the claims', async () => {
    const a = await adaptiveSite();
    const key = await signingKey(a);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const outsider = (await createOrg(server.ds)).admin;
    const read = (query: Record<string, string>) => server.as(outsider.token).get(`${a.base}/published`).query(query);
    const titles = (body: Json) => outline(body.structure);

    await read({}).expect(404);
    const anonymous = (await read({ visitorAuthToken: await visitorToken(key, {}) }).expect(200)).body;
    expect(titles(anonymous)).toEqual([
      { section: 'Guide', siteSpaces: ['Guide'] },
      { section: 'Plans', siteSpaces: ['Plans'] },
    ]);

    const beta = (
      await read({
        visitorAuthToken: await visitorToken(key, { isBetaUser: true, plan: 'pro', email: 'ada@example.test' }),
      }).expect(200)
    ).body;
    expect(titles(beta)).toEqual([
      { section: 'Guide', siteSpaces: ['Guide'] },
      { section: 'Beta', siteSpaces: ['Beta'] },
      { section: 'Plans', siteSpaces: ['Plans', 'Pro'] },
    ]);

    // unsigned claims come as visitor.<name> parameters, coerced to their declared type
    const french = (
      await read({ visitorAuthToken: await visitorToken(key, { plan: 'free' }), 'visitor.language': 'fr' }).expect(200)
    ).body;
    expect(titles(french)).toEqual([
      { section: 'Guide', siteSpaces: ['Guide'] },
      { section: 'Plans', siteSpaces: ['Plans'] },
      { section: 'Français', siteSpaces: ['Français'] },
    ]);

    // a hidden default hands over to the next shown item
    await server.as(a.fx.admin.token).patch(a.base).send({ defaultSiteSection: a.sections.Beta.id }).expect(200);
    const defaults = (
      await read({ visitorAuthToken: await visitorToken(key, {}) }).expect(200)
    ).body.structure.structure.map((s: Json) => [s.title, s.default]);
    expect(defaults).toEqual([
      ['Guide', true],
      ['Plans', false],
    ]);
  });

  it('checks the claims against the schema: signed ones, and the unsigned group for visitor.<name> parameters', async () => {
    const a = await adaptiveSite();
    const key = await signingKey(a);
    const as = server.as(a.fx.admin.token);
    const read = (query: Record<string, string>) => as.get(`${a.base}/published`).query(query);
    const refused: Array<[Record<string, unknown>, Record<string, string>, string]> = [
      [{ plan: 'gold' }, {}, 'visitorAuthToken/plan: must be one of free, pro'],
      [{ isBetaUser: 'yes' }, {}, 'visitorAuthToken/isBetaUser: must be boolean'],
      [{ org: { admin: 1 } }, {}, 'visitorAuthToken/org/admin: must be boolean'],
      [{ teams: [1] }, {}, 'visitorAuthToken/teams/0: must be string'],
      [{}, { 'visitor.language': 'de' }, 'visitor.language: must be one of en, fr'],
      [{}, { 'visitor.plan': 'pro' }, 'visitor.plan: is not allowed here'],
      [
        {},
        { 'visitor.language': 'fr', 'visitor.language.x': 'y' },
        'visitor.language: is given both as a value and as an object',
      ],
    ];
    for (const [claims, query, message] of refused) {
      const res = await read({ visitorAuthToken: await visitorToken(key, claims), ...query }).expect(400);
      expect(res.body.error.message).toBe(message);
    }
    const tooLong = await read({ visitorAuthToken: 'x'.repeat(8193) }).expect(400);
    expect(tooLong.body.error.message).toBe('visitorAuthToken: must be at most 8192 characters');
    expect((await read({ shareKey: 'k'.repeat(257) }).expect(400)).body.error.message).toBe(
      'shareKey: must be at most 256 characters',
    );
    // claims the schema does not declare are dropped, not refused: identity providers add their own
    await read({
      visitorAuthToken: await visitorToken(key, { sub: 'u1', email: 'e@example.test', unsigned: { language: 'fr' } }),
    }).expect(200);
  });

  it('refuses tokens not signed with the current key, or expired: 404', async () => {
    const a = await adaptiveSite();
    const key = await signingKey(a);
    const outsider = (await createOrg(server.ds)).admin;
    const read = (token: string) =>
      server.as(outsider.token).get(`${a.base}/published`).query({ visitorAuthToken: token });
    const token = await visitorToken(key, { isBetaUser: true });
    await read(token).expect(200);
    await read(await visitorToken(key, {}, '-2m')).expect(404);
    await read(await visitorToken('another key of enough length for HS256 use', {})).expect(404);
    await read('not.a.token').expect(404);
    // a signature changed in one character (not the last: its low bits are padding)
    const at = token.length - 10;
    await read(`${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`).expect(404);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}.`;
    await read(none).expect(404);

    // regenerating the key invalidates the old tokens at once
    const regenerated = (await server.as(a.fx.admin.token).post(`${a.base}/publishing/auth/regenerate`).expect(200))
      .body;
    expect(regenerated).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(regenerated.privateKey).not.toBe(key);
    await read(token).expect(404);
    await read(await visitorToken(regenerated.privateKey, { isBetaUser: true })).expect(200);
    expect(await signingKey(a)).toBe(regenerated.privateKey);

    // a token opens a visitor-auth site only
    await server.as(a.fx.admin.token).patch(a.base).send({ visibility: 'public' }).expect(200);
    await read(await visitorToken(regenerated.privateKey, {})).expect(404);
  });

  it('refuses a signed token without exp, or one that lives longer than the maximum (7 days): 400', async () => {
    const a = await adaptiveSite();
    const key = new TextEncoder().encode(await signingKey(a));
    const outsider = (await createOrg(server.ds)).admin;
    const read = (token: string) =>
      server.as(outsider.token).get(`${a.base}/published`).query({ visitorAuthToken: token });
    const now = Math.floor(Date.now() / 1000);
    const day = 24 * 3600;
    const signed = (times: { iat?: number; exp?: number }) =>
      new SignJWT({ plan: 'pro', ...times }).setProtectedHeader({ alg: 'HS256' }).sign(key);
    const tooLong = 'visitorAuthToken: must expire at most 604800 s after it was issued (exp - iat)';
    const refused: Array<[{ iat?: number; exp?: number }, string]> = [
      [{ iat: now }, 'visitorAuthToken: must have an expiry (exp)'],
      [{}, 'visitorAuthToken: must have an expiry (exp)'],
      [{ iat: now, exp: now + 7 * day + 60 }, tooLong],
      [{ exp: now + 8 * day }, tooLong], // no iat: counted from now
      [{ iat: now - 6 * day, exp: now + 2 * day }, tooLong], // two days left, but eight in all
      [{ iat: now + 30 * day, exp: now + 30 * day + 3600 }, tooLong], // an iat ahead buys no time
    ];
    for (const [times, message] of refused)
      expect((await read(await signed(times)).expect(400)).body.error.message).toBe(message);
    await read(await signed({ iat: now, exp: now + 7 * day })).expect(200);
    await read(await signed({ exp: now + 3600 })).expect(200);
  });

  it('members see every item, and what a visitor sees when they present visitor claims', async () => {
    const a = await adaptiveSite('public');
    const as = server.as(a.fx.admin.token);
    const all = (await as.get(`${a.base}/published`).expect(200)).body;
    expect(outline(all.structure).map((s) => (s as Json).section)).toEqual(['Guide', 'Beta', 'Plans', 'Français']);
    const french = (await as.get(`${a.base}/published`).query({ 'visitor.language': 'fr' }).expect(200)).body;
    expect(outline(french.structure).map((s) => (s as Json).section)).toEqual(['Guide', 'Plans', 'Français']);
    const key = await signingKey(a);
    const pro = (
      await as
        .get(`${a.base}/published`)
        .query({ visitorAuthToken: await visitorToken(key, { plan: 'pro' }) })
        .expect(200)
    ).body;
    expect(outline(pro.structure)).toEqual([
      { section: 'Guide', siteSpaces: ['Guide'] },
      { section: 'Plans', siteSpaces: ['Plans', 'Pro'] },
    ]);
  });

  it('a share link reader sees what a visitor with their claims sees, none meaning no claims', async () => {
    const a = await adaptiveSite('share-link');
    const key = (await server.as(a.fx.admin.token).post(`${a.base}/share-links`).send({ name: 'x' }).expect(201)).body
      .key;
    const outsider = (await createOrg(server.ds)).admin;
    const read = (query: Record<string, string>) =>
      server
        .as(outsider.token)
        .get(`${a.base}/published`)
        .query({ shareKey: key, ...query });
    expect(outline((await read({}).expect(200)).body.structure).map((s) => (s as Json).section)).toEqual([
      'Guide',
      'Plans',
    ]);
    expect(
      outline((await read({ 'visitor.language': 'fr' }).expect(200)).body.structure).map((s) => (s as Json).section),
    ).toEqual(['Guide', 'Plans', 'Français']);
    // its signed claims need the site's key
    const token = await visitorToken(await signingKey(a), { isBetaUser: true });
    expect(
      outline((await read({ visitorAuthToken: token }).expect(200)).body.structure).map((s) => (s as Json).section),
    ).toEqual(['Guide', 'Beta', 'Plans']);
  });

  it('the signing key: for visitor-auth and adaptive sites, read and regenerated by admins only', async () => {
    const fx = await createOrg(server.ds);
    const site = await newSite(server, fx.admin, fx.org.id, { spaces: 'empty' });
    const base = `${sitesPath(fx.org.id)}/${site.id}`;
    const as = server.as(fx.admin.token);
    const plain = await as.get(`${base}/publishing/auth`).expect(400);
    expect(plain.body.error.message).toMatch(/^visibility: /);
    await as.post(`${base}/publishing/auth/regenerate`).expect(400);
    await as
      .patch(base)
      .send({ adaptiveContent: { enabled: true } })
      .expect(200);
    const first = (await as.get(`${base}/publishing/auth`).expect(200)).body.privateKey;
    expect((await as.get(`${base}/publishing/auth`).expect(200)).body.privateKey).toBe(first);
    await as
      .patch(base)
      .send({ adaptiveContent: { enabled: false }, visibility: 'visitor-auth' })
      .expect(200);
    expect((await as.get(`${base}/publishing/auth`).expect(200)).body.privateKey).toBe(first);

    const editor = await addMember(server.ds, fx.org, 'edit');
    const outsider = (await createOrg(server.ds)).admin;
    for (const [method, path] of [
      ['get', `${base}/publishing/auth`],
      ['post', `${base}/publishing/auth/regenerate`],
    ] as const) {
      await request(server.app)[method](path).expect(401);
      await server.as(outsider.token)[method](path).expect(404);
      await server.as(editor.token)[method](path).expect(403);
    }
    expect((await as.get(`${base}/publishing/auth`).expect(200)).body.privateKey).toBe(first);
    // it goes with the site
    await as.delete(base).expect(204);
    expect(await server.ds.manager.countBy(SitePublishingAuth, { siteId: site.id })).toBe(0);
  });
});
