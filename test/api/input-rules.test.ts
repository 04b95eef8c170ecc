/**
 * Text input rules shared by every operation: UTF-8 only, no lone surrogates, no duplicate or
 * `__proto__` keys, no control characters, and lengths counted in code points.
 */
import request from 'supertest';
import { codePointLength, text } from '../../api/schemas';
import { Collection } from '../../entities/Collection';
import { createOrg, OrgFixture } from '../factories';
import { Json, newSpace } from '../support/api';
import { commentFixture } from '../support/comments';
import { useServer } from '../support/server';

const server = useServer();

const EMOJI = '\u{1F600}';
const BIDI_AND_NUL = [
  '\u0000',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\u0085',
  '\u007f',
];

describe('the text primitive', () => {
  it('counts code points: a surrogate pair is one character, a lone half is one too', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength(`a${EMOJI}b`)).toBe(3);
    expect(codePointLength('\ud800\ud800')).toBe(2);
    expect(codePointLength('\udc00\ud800')).toBe(2);
  });

  it('checks lengths in code points with the usual messages', () => {
    const title = text({ min: 2, max: 3 });
    expect(title.safeParse(EMOJI.repeat(3)).success).toBe(true);
    expect(title.safeParse(EMOJI.repeat(4)).error?.issues[0]).toMatchObject({
      code: 'too_big',
      maximum: 3,
      type: 'string',
    });
    expect(title.safeParse(EMOJI).error?.issues[0]).toMatchObject({ code: 'too_small', minimum: 2, type: 'string' });
  });

  it('takes tab and line breaks only in multiline text, and no other control anywhere', () => {
    const line = text({ max: 10 });
    const lines = text({ max: 10, characters: 'lines' });
    for (const c of ['\t', '\n', '\r']) {
      expect(lines.safeParse(`a${c}b`).success).toBe(true);
      expect(line.safeParse(`a${c}b`).success).toBe(false);
    }
    for (const c of BIDI_AND_NUL) {
      expect(line.safeParse(`a${c}b`).success).toBe(false);
      expect(lines.safeParse(`a${c}b`).success).toBe(false);
    }
    expect(text({ max: 10, characters: 'any' }).safeParse('a\u0000\u202eb').success).toBe(true);
    expect(line.safeParse('Ünïcødé 日本').success).toBe(true);
  });
});

describe('JSON bodies', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });
  const collections = () => `/v1/orgs/${fx.org.id}/collections`;
  /** posts raw JSON text (or bytes) as the body, unserialized */
  const postRaw = (path: string, body: string | Buffer, contentType = 'application/json') =>
    server
      .as(fx.admin.token)
      .post(path)
      .set('Content-Type', contentType)
      .serialize((raw) => raw)
      .send(body);
  const expect400 = async (res: request.Response | Promise<request.Response>, message: string) => {
    const r = await res;
    expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { error: { code: 400, message } } });
  };
  const collectionCount = () => server.ds.manager.countBy(Collection, { organizationId: fx.org.id });

  it('refuses bytes that are not UTF-8 instead of replacing them, and charsets other than UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    await expect400(postRaw(collections(), bytes), 'request body: must be valid UTF-8');
    // an encoded surrogate (CESU-8) and an overlong encoding are not UTF-8 either
    await expect400(
      postRaw(
        collections(),
        Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      ),
      'request body: must be valid UTF-8',
    );
    await expect400(
      postRaw(collections(), Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])),
      'request body: must be valid UTF-8',
    );
    const utf16 = await postRaw(
      collections(),
      Buffer.from('{"title":"x"}', 'utf16le'),
      'application/json; charset=utf-16le',
    );
    expect(utf16.status).toBe(415);
    expect(utf16.body.error.message).toBe('request body: charset must be utf-8');
    expect(await collectionCount()).toBe(0);
    const ok = await postRaw(collections(), Buffer.from('{"title":"café"}'), 'application/json; charset=UTF-8').expect(
      201,
    );
    expect(ok.body.title).toBe('café');
  });

  it('refuses lone surrogates, naming the field, and keeps escaped pairs', async () => {
    await expect400(postRaw(collections(), '{"title":"a\\ud800"}'), 'title: must not contain lone surrogates');
    await expect400(postRaw(collections(), '{"title":"\\udc00b"}'), 'title: must not contain lone surrogates');
    const teams = `/v1/orgs/${fx.org.id}/teams`;
    const team = (await server.as(fx.admin.token).put(teams).send({ title: 'Core' }).expect(201)).body;
    const put = (body: string) =>
      server.as(fx.admin.token).put(`${teams}/${team.id}/members`).set('Content-Type', 'application/json').send(body);
    await expect400(put('{"add":["x","\\ud83d"]}'), 'add.1: must not contain lone surrogates');
    await expect400(
      put('{"memberships":{"\\udfff":{"role":"owner"}}}'),
      'memberships: keys must not contain lone surrogates',
    );
    expect(await collectionCount()).toBe(0);
    const pair = await postRaw(collections(), '{"title":"\\ud83d\\ude00 ok"}').expect(201);
    expect(pair.body.title).toBe(`${EMOJI} ok`);
  });

  it('refuses duplicate keys at any depth, escaped spellings included, naming the field', async () => {
    await expect400(postRaw(collections(), '{"title":"a","title":"b"}'), 'title: must not appear more than once');
    await expect400(
      postRaw(collections(), '{"title":"a", "\\u0074itle" : "b"}'),
      'title: must not appear more than once',
    );
    const space = await newSpace(server, fx.admin, fx.org.id);
    const anchor = `{"type":"space","space":"${space.id}"}`;
    await expect400(
      postRaw(`/v1/spaces/${space.id}/move`, `{"position":{"before":${anchor},"before":${anchor}}}`),
      'position.before: must not appear more than once',
    );
    await expect400(
      postRaw(
        `/v1/spaces/${space.id}/move`,
        `{"position":{"before":{"type":"space","type":"space","space":"${space.id}"}}}`,
      ),
      'position.before.type: must not appear more than once',
    );
    expect(await collectionCount()).toBe(0);
    // the same key in two objects, and quotes and colons inside strings, are no duplicates
    const res = await postRaw(collections(), '{"title" : "say \\"title\\" : \\"b\\""}').expect(201);
    expect(res.body.title).toBe('say "title" : "b"');
    const patched = await server
      .as(fx.admin.token)
      .patch(`/v1/collections/${res.body.id}`)
      .send({ title: 'T', description: 'Notes: "title": x' })
      .expect(200);
    expect(patched.body.description).toBe('Notes: "title": x');
  });

  it('refuses `__proto__` keys in records as unknown fields instead of dropping them', async () => {
    const teams = `/v1/orgs/${fx.org.id}/teams`;
    const team = (await server.as(fx.admin.token).put(teams).send({ title: 'Core' }).expect(201)).body;
    const put = (body: string) =>
      server.as(fx.admin.token).put(`${teams}/${team.id}/members`).set('Content-Type', 'application/json').send(body);
    await expect400(put(`{"memberships":{"__proto__":{"role":"owner"}}}`), 'memberships.__proto__: unknown field');
    await expect400(
      put(`{"memberships":{"\\u005f_proto__":{"role":"owner"}}}`),
      'memberships.__proto__: unknown field',
    );
    await expect400(put(`{"__proto__":{"add":[]}}`), '__proto__: unknown field');
    const space = await newSpace(server, fx.admin, fx.org.id);
    await expect400(
      postRaw(
        `/v1/spaces/${space.id}/content/template`,
        '{"id":"x","params":{"contentRefs":{"__proto__":{"kind":"file","file":"f"}}}}',
      ),
      'params.contentRefs.__proto__: unknown field',
    );
  });

  it('refuses bodies nested deeper than any operation takes', async () => {
    const deep = `{"title":"t","x":${'['.repeat(300)}${']'.repeat(300)}}`;
    await expect400(postRaw(collections(), deep), 'request body: must not nest more than 256 levels');
    // a shallow unknown field still gets the usual answer
    await expect400(postRaw(collections(), '{"title":"t","x":[[1]]}'), 'x: unknown field; accepted: title, parent');
  });

  it('a body over BODY_LIMIT_BYTES is a 413 before it is parsed', async () => {
    const limit = server.config.bodyLimitBytes;
    const body = `{"title":"t","description":"${'a'.repeat(limit)}"}`;
    const res = await postRaw(collections(), body);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: { error: { code: 413, message: 'request body: must be at most 1048576 bytes' } },
    });
    expect(await collectionCount()).toBe(0);
  });

  it('more than 100,000 values and keys are refused on the bytes, before JSON.parse builds them', async () => {
    // 3 bytes of text, ~70 bytes of heap each once parsed
    const empties = `{"title":"t","x":[${'{},'.repeat(100_000)}{}]}`;
    await expect400(postRaw(collections(), empties), 'request body: must not hold more than 100000 values and keys');
    const keys = `{"title":"t","x":{${Array.from({ length: 50_001 }, (_, i) => `"k${i}":0`).join(',')}}}`;
    await expect400(postRaw(collections(), keys), 'request body: must not hold more than 100000 values and keys');
    // the publish route reads 16 MiB before its token is checked: the same bound, for anyone
    const anonymous = await request(server.app)
      .post('/v1/integrations/bomb')
      .set('Content-Type', 'application/json')
      .send(`[${'{},'.repeat(1_000_000)}{}]`);
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({
      status: 400,
      body: { error: { code: 400, message: 'request body: must not hold more than 100000 values and keys' } },
    });
    // 99,000 values 250 levels down: each walked once, without a copy of its path (that copy took 1.7 GB)
    const deepAndWide = `{"title":"t","x":${'['.repeat(250)}${'0,'.repeat(99_000)}0${']'.repeat(250)}}`;
    await expect400(postRaw(collections(), deepAndWide), 'x: unknown field; accepted: title, parent');
    expect(await collectionCount()).toBe(0);
  });
});

describe('page markdown is parsed within bounds', () => {
  it("a page past MARKDOWN_MAX_TOKENS is a 400 that writes nothing; one nested past markdown-it's maxNesting is taken and read", async () => {
    const fx = await createOrg(server.ds);
    const space = await newSpace(server, fx.admin, fx.org.id);
    const pages = `/v1/spaces/${space.id}/content/pages`;
    // 650 rows of 100 cells: 130 KB that parsed into 260,000 tokens (1 MB of them: 350 MB of heap)
    const cells = `${'|h'.repeat(100)}|\n${'|-'.repeat(100)}|\n${`${'|a'.repeat(100)}|\n`.repeat(650)}`;
    const refused = await server.as(fx.admin.token).post(pages).send({ title: 'Cells', markdown: cells });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'markdown: must not parse into more than 250000 markdown tokens (blocks, inlines and their ends)',
        },
      },
    });
    expect((await server.as(fx.admin.token).get(pages).expect(200)).body.pages).toEqual([]);
    // 1,000,000 characters of `> `: markdown-it stops at 100 levels, the rest is text it does not parse
    const quotes = `${'> '.repeat(499_980)}[deep](https://deep.example)`;
    const page = (await server.as(fx.admin.token).post(pages).send({ title: 'Quotes', markdown: quotes }).expect(201))
      .body;
    const read = await server
      .as(fx.admin.token)
      .get(`/v1/spaces/${space.id}/content/page/${page.id}`)
      .query({ format: 'document' })
      .expect(200);
    let depth = 0;
    for (let node = read.body.document; node?.nodes?.length; node = node.nodes[0]) depth++;
    expect(depth).toBeLessThanOrEqual(101);
  });
});

describe('control characters', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it('are refused in titles, labels and names alike', async () => {
    const space = await newSpace(server, fx.admin, fx.org.id);
    const team = (
      await server.as(fx.admin.token).put(`/v1/orgs/${fx.org.id}/teams`).send({ title: 'Core' }).expect(201)
    ).body;
    const writes: Array<[string, string, (v: string) => Json, string]> = [
      ['post', `/v1/orgs/${fx.org.id}/collections`, (v) => ({ title: v }), 'title'],
      ['post', `/v1/orgs/${fx.org.id}/spaces`, (v) => ({ title: v }), 'title'],
      ['patch', `/v1/spaces/${space.id}`, (v) => ({ emoji: v }), 'emoji'],
      ['patch', `/v1/orgs/${fx.org.id}`, (v) => ({ title: `ab${v}` }), 'title'],
      ['patch', `/v1/orgs/${fx.org.id}/teams/${team.id}`, (v) => ({ title: v }), 'title'],
      ['post', '/v1/user/tokens', (v) => ({ label: v }), 'label'],
      ['post', `/v1/spaces/${space.id}/content/pages`, (v) => ({ title: v }), 'title'],
      ['post', `/v1/spaces/${space.id}/change-requests`, (v) => ({ subject: v }), 'subject'],
    ];
    for (const [method, path, body, name] of writes) {
      for (const c of [...BIDI_AND_NUL, '\n', '\t']) {
        const res = await (server.as(fx.admin.token) as unknown as Record<string, (p: string) => request.Test>)
          [method](path)
          .send(body(`x${c}y`));
        expect({ path, c: c.codePointAt(0), status: res.status, message: res.body.error?.message }).toEqual({
          path,
          c: c.codePointAt(0),
          status: 400,
          message: `${name}: must not contain control characters`,
        });
      }
    }
  });

  it('are refused in markdown and file names, while markdown keeps its line breaks and tabs', async () => {
    const space = await newSpace(server, fx.admin, fx.org.id);
    const pages = `/v1/spaces/${space.id}/content/pages`;
    const bad = await server.as(fx.admin.token).post(pages).send({ title: 'T', markdown: 'a\u202eb' }).expect(400);
    expect(bad.body.error.message).toBe('markdown: must not contain control characters');
    const page = await server
      .as(fx.admin.token)
      .post(pages)
      .send({ title: 'T', markdown: 'line\r\n\tindented\n' })
      .expect(201);
    expect(page.body.id).toBeTruthy();
    const upload = await server
      .as(fx.admin.token)
      .post(`/v1/spaces/${space.id}/content/files`)
      .query({ name: 'cv\u202efdp.exe' })
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(400);
    expect(upload.body.error.message).toBe('name: must not contain control characters');
  });

  it('are refused in reactions, which refused NUL but took bidi marks', async () => {
    const c = await commentFixture(server);
    const comment = (
      await server
        .as(c.editor.token)
        .post(c.spaceComments)
        .send({ body: { markdown: 'Hi' } })
        .expect(200)
    ).body;
    const res = await server
      .as(c.editor.token)
      .put(`${c.spaceComments}/${comment.id}`)
      .send({ addedReactions: ['\u200f\u{1F44D}'] })
      .expect(400);
    expect(res.body.error.message).toBe('addedReactions.0: must not contain control characters');
    const comments = await server
      .as(c.editor.token)
      .post(c.spaceComments)
      .send({ body: { markdown: 'x\u0000' } })
      .expect(400);
    expect(comments.body.error.message).toBe('body.markdown: must not contain control characters');
  });
});

describe('lengths count code points, as the OpenAPI document does', () => {
  let fx: OrgFixture;
  beforeEach(async () => {
    fx = await createOrg(server.ds);
  });

  it("takes a space title of 50 emoji (GitBook's SpaceTitle) and refuses 51, and a one-emoji organization title is one character", async () => {
    const title = EMOJI.repeat(50);
    const space = await newSpace(server, fx.admin, fx.org.id, { title });
    expect(space.title).toBe(title);
    expect((await server.as(fx.admin.token).get(`/v1/spaces/${space.id}`).expect(200)).body.title).toBe(title);
    const long = await server
      .as(fx.admin.token)
      .post(`/v1/orgs/${fx.org.id}/spaces`)
      .send({ title: EMOJI.repeat(51) })
      .expect(400);
    expect(long.body.error.message).toBe('title: must be at most 50 characters');
    const short = await server.as(fx.admin.token).patch(`/v1/orgs/${fx.org.id}`).send({ title: EMOJI }).expect(400);
    expect(short.body.error.message).toBe('title: must be at least 2 characters');
    await server
      .as(fx.admin.token)
      .patch(`/v1/orgs/${fx.org.id}`)
      .send({ title: EMOJI.repeat(2) })
      .expect(200);
  });

  it('duplicates a space with a full-length emoji title without splitting a character', async () => {
    const space = await newSpace(server, fx.admin, fx.org.id, { title: EMOJI.repeat(50) });
    const copy = (await server.as(fx.admin.token).post(`/v1/spaces/${space.id}/duplicate`).expect(201)).body;
    expect(copy.title).toBe(`${EMOJI.repeat(43)} (copy)`);
  });
});
