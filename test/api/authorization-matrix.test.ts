/**
 * The authorization matrix: every operation of /v1/openapi.json, called by every kind of caller
 * against one world, answers the class its cell in test/authorization-matrix.ts says; a refused write changes
 * nothing (a fingerprint of the world's rows before and after each operation's refused probes); nothing is
 * revealed (no successful answer names an object its caller may not see, and a refused 404 or 204 is the answer
 * the same request gets for an unknown object); and the table and the document name the same operations, so a
 * new route fails here until it is classified.
 *
 * Reads run before writes. A caller expected to succeed at a write acts on a fresh object of its own
 * (test/support/authorization-probes.ts), so one success never changes what the next caller sees. Rate
 * limits are off for this server, and its jobs go to a private task queue no worker serves (their rows stay
 * pending; the workflows are terminated at the end).
 */
import { randomBytes } from 'crypto';
import { SignJWT } from 'jose';
import type { DataSource } from 'typeorm';
import { newId } from '../../domain/ids';
import { loadConfig } from '../../platform/config';
import { type Cell, MATRIX } from '../authorization-matrix';
import { unique } from '../factories';
import { PROBES } from '../support/authorization-probes';
import { buildWorld, Client, COLUMNS, type Column, Fresh, type Req, type World } from '../support/authorization-world';
import { startServer, type TestServer } from '../support/server';
import { privateTaskQueue } from '../support/temporal';

let server: TestServer;
let client: Client;
let world: World;

beforeAll(async () => {
  const base = privateTaskQueue(loadConfig());
  server = await startServer({
    temporal: base.temporal,
    rateLimits: { ...base.rateLimits, perToken: 0, perUser: 0, perOrganization: 0, perAddress: 0 },
    pdf: { ...base.pdf, waitSeconds: 0 },
    imports: { ...base.imports, waitSeconds: 0 },
  });
  client = await Client.start(server.app);
  world = await buildWorld(server, client);
}, 60_000);

afterAll(async () => {
  await terminateWorkflows(server).catch(() => undefined);
  await client?.close();
  await server?.close();
});

/** The class of an answer, as the cells name them. */
function classOf(status: number, expected: Cell): Cell | string {
  if (status >= 200 && status < 300) return expected === '204-noop' && status === 204 ? '204-noop' : 'ok';
  return String(status);
}

/** The request a caller sends: the visitor adds its token where the operation takes one. */
function requestOf(column: Column, req: Req): Req {
  if (column !== 'visitor') return req;
  return { ...req, query: { ...req.query, visitorAuthToken: world.visitorToken } };
}

describe('the authorization matrix', () => {
  it('answers every operation, for every kind of caller, as its cell says; a refused write changes nothing', async () => {
    // the table, the probes and the document name the same operations
    const document = (await client.send(null, { method: 'get', path: '/v1/openapi.json' }).expect(200)).body;
    const operations = new Map<string, string>();
    for (const item of Object.values(document.paths) as Array<Record<string, { operationId: string }>>)
      for (const [method, op] of Object.entries(item)) operations.set(op.operationId, method);
    const documented = [...operations.keys()].sort();
    expect({ missingFromTable: documented.filter((id) => !MATRIX[id]) }).toEqual({ missingFromTable: [] });
    expect({ notInDocument: Object.keys(MATRIX).filter((id) => !operations.has(id)) }).toEqual({ notInDocument: [] });
    expect(Object.keys(PROBES).sort()).toEqual(documented);

    const mismatches: string[] = [];
    const changed: string[] = [];
    const leaks: string[] = [];
    const fresh = new Fresh(server, client, world);
    const fingerprint = await worldFingerprint(server.ds, world);

    const hidden = hiddenIds(world);
    const names = namesOf(world);
    async function probe(operationId: string, column: Column, req: Req): Promise<void> {
      const expected = MATRIX[operationId][COLUMNS.indexOf(column)];
      const res = await client.send(world.tokens[column], requestOf(column, req));
      const actual = classOf(res.status, expected);
      // a 404 of the router is a probe that names no operation, not a caller refused
      if (res.status === 404 && res.body?.error?.message === 'route not found')
        mismatches.push(`${operationId} × ${column}: the probe's path is not the operation's (${req.path})`);
      else if (actual !== expected)
        mismatches.push(
          `${operationId} × ${column}: expected ${expected}, got ${res.status}${res.status >= 300 ? ` ${res.body?.error?.message ?? ''}` : ''}`,
        );
      // an answer never names what its caller may not see
      const shown = res.status < 300 ? hidden[column].filter(([, id]) => res.text?.includes(id)) : [];
      if (shown.length) leaks.push(`${operationId} × ${column}: names ${shown.map(([name]) => name).join(', ')}`);
      // and what they may not see answers as what does not exist: the same request on an unknown object
      const unknown = withUnknownTarget(req, names);
      if ((res.status === 404 || actual === '204-noop') && unknown) {
        const other = await client.send(world.tokens[column], requestOf(column, unknown));
        const answer = (r: typeof res) => `${r.status} ${r.body?.error?.message ?? ''}`.trim();
        if (answer(other) !== answer(res))
          leaks.push(
            `${operationId} × ${column}: "${answer(res)}" for the world's object, "${answer(other)}" for an unknown id`,
          );
      }
    }

    const reads = documented.filter((id) => operations.get(id) === 'get');
    const writes = documented.filter((id) => operations.get(id) !== 'get');

    // reads first, against the world's objects: the refused callers at once, then the others one by one (a
    // read may write: the PDF export's row)
    for (const operationId of reads) {
      const row = MATRIX[operationId];
      const req = () => PROBES[operationId].req(world);
      await Promise.all(
        COLUMNS.filter((_, i) => row[i] !== 'n/a' && row[i] !== 'ok').map((column) =>
          probe(operationId, column, req()),
        ),
      );
      for (const column of COLUMNS.filter((_, i) => row[i] === 'ok')) await probe(operationId, column, req());
    }

    // then writes: the refused ones between two fingerprints, then each success on a fresh object
    for (const operationId of writes) {
      const { req, fresh: freshReq, additive } = PROBES[operationId];
      const row = MATRIX[operationId];
      // a write some caller may make needs an object of its own for each (or only adds): one no caller may make does not
      if (!freshReq && !additive && row.includes('ok'))
        throw new Error(`${operationId}: a write needs fresh objects or to be additive`);
      const refused = COLUMNS.filter((_, i) => row[i] !== 'n/a' && row[i] !== 'ok');
      const before = await fingerprint();
      await Promise.all(refused.map((column) => probe(operationId, column, req(world))));
      const after = await fingerprint();
      const diff = [...before.keys()].filter((table) => before.get(table) !== after.get(table));
      if (diff.length) changed.push(`${operationId}: a refused probe changed ${diff.join(', ')}`);
      for (const column of COLUMNS.filter((_, i) => row[i] === 'ok')) {
        let target: Req;
        try {
          target = freshReq ? await freshReq(fresh, column) : req(world);
        } catch (err) {
          mismatches.push(`${operationId} × ${column}: the fresh object could not be made: ${(err as Error).message}`);
          continue;
        }
        await probe(operationId, column, target);
      }
    }

    expect({ mismatches, changed, leaks }).toEqual({ mismatches: [], changed: [], leaks: [] });
  }, 180_000);

  it("the published view's key and token parameters answer every refusal as an unknown site", async () => {
    const w = world;
    const site = (org: string, id: string) => `/v1/orgs/${org}/sites/${id}/published`;
    const foreignToken = await new SignJWT({ isBetaUser: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(randomBytes(32).toString('base64url')));
    const bogusKey = randomBytes(16).toString('hex');
    const variants: Array<[string, Req]> = [
      [
        'a bogus shareKey on the real site',
        { method: 'get', path: site(w.org, w.site.id), query: { shareKey: bogusKey } },
      ],
      [
        'a bogus visitorAuthToken on the real site',
        { method: 'get', path: site(w.org, w.site.id), query: { visitorAuthToken: 'x.y.z' } },
      ],
      [
        "another key's visitor token on the real site",
        { method: 'get', path: site(w.org, w.site.id), query: { visitorAuthToken: foreignToken } },
      ],
      ['the real site under an unknown organization', { method: 'get', path: site(newId(), w.site.id) }],
      ['the real site under another organization', { method: 'get', path: site(w.otherOrg, w.site.id) }],
      ['an unpublished site', { method: 'get', path: site(w.org, w.selectedSite) }],
      [
        'an unpublished site with a bogus shareKey',
        { method: 'get', path: site(w.org, w.selectedSite), query: { shareKey: bogusKey } },
      ],
      [
        'an unknown site with a bogus shareKey',
        { method: 'get', path: site(w.org, newId()), query: { shareKey: bogusKey } },
      ],
      [
        "an unknown site with the real site's visitor token",
        { method: 'get', path: site(w.org, newId()), query: { visitorAuthToken: w.visitorToken } },
      ],
    ];
    const unknown: Req = { method: 'get', path: site(w.org, newId()) };
    const answer = (r: { status: number; body?: { error?: { message?: string } } }) =>
      `${r.status} ${r.body?.error?.message ?? ''}`.trim();
    const differences: string[] = [];
    for (const column of COLUMNS) {
      const expected = answer(await client.send(w.tokens[column], unknown));
      if (!/^40[14] /.test(expected)) differences.push(`${column}: an unknown site answers ${expected}`);
      for (const [name, req] of variants) {
        const got = answer(await client.send(w.tokens[column], req));
        if (got !== expected) differences.push(`${column}, ${name}: "${got}", where an unknown site is "${expected}"`);
      }
    }
    expect(differences).toEqual([]);
  });
});

/**
 * The request with the object it names made unknown: the last segment of its path that names one of the world's
 * objects (an id, the spec's slug, the integration's name) replaced by a name of nothing. Null when it names none,
 * or when its body names one too (the refusal may then be about the body's object).
 */
function withUnknownTarget(req: Req, names: Set<string>): Req | null {
  if (req.body !== undefined && [...names].some((name) => JSON.stringify(req.body).includes(name))) return null;
  const segments = req.path.split('?')[0].split('/');
  for (let i = segments.length - 1; i >= 0; i--)
    if (names.has(segments[i])) {
      segments[i] = /^[A-Za-z0-9][A-Za-z0-9_-]{19,20}$/.test(segments[i]) ? newId() : unique('unknown-');
      return { ...req, path: segments.join('/') };
    }
  return null;
}

/** Every id and name of the world's objects (not its tokens, keys or URLs). */
function namesOf(w: World): Set<string> {
  const names = new Set<string>();
  const walk = (value: unknown, key: string) => {
    if (['tokens', 'signingKey', 'visitorToken', 'blobUrl', 'pagePath', 'token'].includes(key)) return;
    if (typeof value === 'string') names.add(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(w, '');
  return names;
}

/**
 * The world's objects each caller may not see (its cell of the operation that reads them is a 404), by name:
 * none of its successful answers may contain their ids.
 */
function hiddenIds(w: World): Record<Column, Array<[string, string]>> {
  const unseen = (operationId: string, column: Column) => MATRIX[operationId][COLUMNS.indexOf(column)] === '404';
  const hidden = {} as Record<Column, Array<[string, string]>>;
  for (const column of COLUMNS) {
    const ids: Array<[string, string]> = [];
    if (unseen('getSpace', column))
      ids.push(
        ['space', w.space],
        ['change request', w.changeRequest],
        ['page', w.page],
        ['file', w.file],
        ['comment', w.comment],
        ['reply', w.reply],
        ['change request comment', w.crComment],
        ['change request reply', w.crReply],
        ['translation', w.translation],
        ['import run', w.importRun],
      );
    if (unseen('getCollection', column)) ids.push(['collection', w.collection]);
    // the site's own id is in the published address of the spaces it shows (their urls.published), by design
    if (unseen('getSiteById', column))
      ids.push(
        ['section', w.site.sectionX],
        ['section group', w.site.group],
        ['site space', w.site.siteSpace],
        ['share link', w.site.shareLink],
      );
    if (unseen('getTeam', column)) ids.push(['team', w.team]);
    if (unseen('getIntegrationInstallationById', column)) ids.push(['installation', w.installation]);
    if (unseen('getOpenAPISpecVersionById', column)) ids.push(['OpenAPI version', w.specVersion]);
    if (column !== 'admin') ids.push(["the site's signing key", w.signingKey]);
    hidden[column] = ids;
  }
  return hidden;
}

/**
 * Each table's row count and a checksum of its rows, for the rows of the world's organizations (and what hangs
 * from them: a space's change requests and revisions, a site's structure, a team's members, the tokens of their
 * members and integrations). Immutable content objects and rate-limit counters are left out.
 */
async function worldFingerprint(ds: DataSource, w: World): Promise<() => Promise<Map<string, string>>> {
  const ids = [w.org, w.outsiderOrg, w.otherOrg];
  if (ids.some((id) => !/^[A-Za-z0-9_-]+$/.test(id))) throw new Error('unexpected id');
  const orgs = ids.map((id) => `'${id}'`).join(',');
  const spaces = `(SELECT id FROM spaces WHERE organizationId IN (${orgs}))`;
  const sites = `(SELECT id FROM sites WHERE organizationId IN (${orgs}))`;
  const comments = `(SELECT id FROM comments WHERE spaceId IN ${spaces})`;
  const scopes: Record<string, string> = {
    organizations: `id IN (${orgs})`,
    integrations: `ownerOrganizationId IN (${orgs})`,
    api_tokens: `userId IN (SELECT userId FROM members WHERE organizationId IN (${orgs})) OR integrationId IN (SELECT id FROM integrations WHERE ownerOrganizationId IN (${orgs}))`,
    users: `id IN (SELECT userId FROM members WHERE organizationId IN (${orgs}))`,
    team_members: `teamId IN (SELECT id FROM teams WHERE organizationId IN (${orgs}))`,
    comment_replies: `commentId IN ${comments}`,
    comment_reactions: `targetId IN ${comments} OR targetId IN (SELECT id FROM comment_replies WHERE commentId IN ${comments})`,
    translation_pages: `translationId IN (SELECT id FROM translations WHERE organizationId IN (${orgs}))`,
  };
  const columns: Array<{ table: string; column: string }> = await ds.query(
    `SELECT TABLE_NAME AS \`table\`, COLUMN_NAME AS \`column\` FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  const selects: string[] = [];
  for (const [table, cols] of byTable) {
    let scope = scopes[table];
    if (!scope && cols.includes('organizationId')) scope = `organizationId IN (${orgs})`;
    else if (!scope && cols.includes('spaceId')) scope = `spaceId IN ${spaces}`;
    else if (!scope && cols.includes('siteId')) scope = `siteId IN ${sites}`;
    if (!scope) continue; // content_objects, rate_limit_counters, migrations
    const values = cols.map((c) => `\`${c}\``).join(', ');
    selects.push(
      `SELECT '${table}' AS t, COUNT(*) AS n, COALESCE(SUM(CRC32(CONCAT_WS('|', ${values}))), 0) AS h FROM \`${table}\` WHERE ${scope}`,
    );
  }
  const statement = selects.join(' UNION ALL ');
  return async () => {
    const rows: Array<{ t: string; n: string; h: string }> = await ds.query(statement);
    return new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
  };
}

/** The workflows this server started on its private queue, where no worker runs: terminated, not left running. */
async function terminateWorkflows(s: TestServer): Promise<void> {
  const temporal = await s.temporal.getClient();
  const query = `TaskQueue = "${s.config.temporal.taskQueue}" AND ExecutionStatus = "Running"`;
  for await (const execution of temporal.workflow.list({ query }))
    await temporal.workflow
      .getHandle(execution.workflowId, execution.runId)
      .terminate('the authorization matrix is done')
      .catch(() => undefined);
}
