/**
 * The world of the authorization matrix (test/authorization-matrix.ts): one organization with
 * a real object of every kind, the callers of the matrix's columns, and the fresh objects a caller expected
 * to succeed at a write acts on, so that one caller's success never changes what the next one sees.
 *
 * Objects are made through the API as the organization's admin where an operation exists, and as rows or
 * domain steps only where none does (link invites, the installation rows of the token columns, the tokens
 * themselves, an OpenAPI version without a worker). Jobs are dispatched to the test server's private task
 * queue, where no worker runs: their rows stay pending, which is all the matrix needs, and nothing the
 * running worker's reconciler would pick up (every row has its run id).
 */
import http from 'http';
import { SignJWT } from 'jose';
import type { AddressInfo } from 'net';
import pino from 'pino';
import { PNG } from 'pngjs';
import request from 'supertest';
import { issueToken } from '../../domain/auth/tokens';
import { newId } from '../../domain/ids';
import { issueIntegrationTokens } from '../../domain/integrations/tokens';
import { INTEGRATION_SCOPES } from '../../domain/integrations/vocabulary';
import { jobRef } from '../../domain/jobs/job-kind';
import { openapiProcessJob } from '../../domain/openapi-specs/process-job';
import { bundleSpecSource, saveSpecVersion } from '../../domain/openapi-specs/processing';
import { createOrganization } from '../../domain/organizations/organizations';
import { Integration } from '../../entities/Integration';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { LinkInvite } from '../../entities/LinkInvite';
import { OpenAPISpec } from '../../entities/OpenAPISpec';
import { inTransaction } from '../../platform/db/transactions';
import { GuardedFetch } from '../../platform/net/guarded-fetch';
import { createBlobStore } from '../../platform/storage';
import { Actor, addMember, createOrg, createUser, unique } from '../factories';
import type { Json } from './api';
import { grant, insertCollection, insertSpace } from './content';
import { insertInstallation, insertIntegration } from './integration-rows';
import type { TestServer } from './server';

/** The callers of the matrix, in the order of its columns. */
export const COLUMNS = [
  'anonymous',
  'outsider',
  'guest',
  'guestRead',
  'read',
  'comment',
  'edit',
  'review',
  'create',
  'admin',
  'installationNoScopes',
  'installationScoped',
  'otherInstallation',
  'integration',
  'visitor',
] as const;
export type Column = (typeof COLUMNS)[number];

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One request of a probe: a body is JSON unless `raw` gives bytes and their type. */
export interface Req {
  method: Method;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  raw?: { bytes: Buffer; type: string };
}

const OPENAPI_TEXT =
  'openapi: 3.1.0\ninfo: {title: Matrix, version: "1"}\npaths:\n  /pets:\n    get:\n      responses:\n        "200": {description: ok}\n';

export const ADAPTIVE_SCHEMA = {
  type: 'object',
  properties: { isBetaUser: { type: 'boolean', description: 'Whether the visitor is a Beta user.' } },
  additionalProperties: false,
};

export const DOCUMENT = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [
    { object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] },
  ],
});

function png(): Buffer {
  const image = new PNG({ width: 4, height: 4 });
  image.data = Buffer.alloc(4 * 4 * 4, 0x80);
  return PNG.sync.write(image);
}

/** A valid publish body for `organizationId` (an unlisted integration, every scope, an icon). */
export function publishBody(organizationId: string, scopes: string[] = []): Json {
  return {
    organization: organizationId,
    title: 'Matrix integration',
    description: 'Probes every operation',
    visibility: 'unlisted',
    script: 'export default { fetch: () => new Response("ok") };\n',
    icon: png().toString('base64'),
    scopes,
  };
}

/** The site of the world and each fresh one: sections X (space S, then S2) and Y (S2), X in group G, a share link. */
export interface SiteIds {
  id: string;
  sectionX: string;
  sectionY: string;
  group: string;
  /** the site space of S2 in section X */
  siteSpace: string;
  shareLink: string;
}

export interface World {
  org: string;
  /** the outsider's organization, where the other installation lives */
  outsiderOrg: string;
  /** a second organization the admin administers: where transfers go */
  otherOrg: string;
  tokens: Record<Column, string | null>;
  admin: Actor;
  /** the author of the world's comments and replies (the `comment` member) */
  author: Actor;
  /** a member (read) whom the member, team and grant operations name */
  spare: Actor;
  /** a token of the admin's, which revokeApiToken names */
  adminTokenId: string;
  collection: string;
  /** in the collection, so the guest's read grant on the collection reaches it */
  space: string;
  /** a soft-deleted space in the collection, for restoreSpace */
  deletedSpace: string;
  /** a space at the root, shown in the site's sections */
  space2: string;
  /** the space in the scoped installation's selection */
  selectedSpace: string;
  /** a revision of the space, read by id */
  revision: string;
  page: string;
  pagePath: string;
  file: string;
  /** a signed download URL of the file (path and query) */
  blobUrl: string;
  changeRequest: string;
  comment: string;
  reply: string;
  crComment: string;
  crReply: string;
  /** a review of the change request, by the admin */
  review: string;
  team: string;
  samlProvider: string;
  linkInvite: string;
  specSlug: string;
  specVersion: string;
  translation: string;
  importRun: string;
  site: SiteIds;
  /** the site in the scoped installation's selection */
  selectedSite: string;
  integration: string;
  installation: string;
  event: string;
  /** the site's key that signs visitor tokens (its admins' secret) */
  signingKey: string;
  /** a visitor token of the site, signed with its key */
  visitorToken: string;
}

/** Requests against the app on one listening server (a supertest agent per request would listen anew each time). */
export class Client {
  private readonly server: http.Server;
  private readonly base: string;

  private constructor(server: http.Server) {
    this.server = server;
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  static async start(app: http.RequestListener): Promise<Client> {
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new Client(server);
  }

  send(token: string | null, req: Req): request.Test {
    let test = request(this.base)[req.method](req.path);
    if (token) test = test.set('Authorization', `Bearer ${token}`);
    if (req.query) test = test.query(req.query);
    if (req.raw) return test.set('Content-Type', req.raw.type).send(req.raw.bytes);
    return req.body === undefined ? test : test.send(req.body as object);
  }

  /** Sends and requires a 2xx, naming the request and the answer otherwise. */
  async ok(token: string | null, req: Req): Promise<Json> {
    const res = await this.send(token, req);
    if (res.status < 200 || res.status > 299)
      throw new Error(`${req.method.toUpperCase()} ${req.path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Builds the fresh objects of the successful writes, through the admin's token (and rows where no operation exists). */
export class Fresh {
  constructor(
    readonly server: TestServer,
    readonly client: Client,
    readonly w: World,
  ) {}

  private as(req: Req): Promise<Json> {
    return this.client.ok(this.w.admin.token, req);
  }

  async organization(): Promise<string> {
    const org = await inTransaction(this.server.ds, (db) =>
      createOrganization(db, { title: unique('Fresh org ') }, this.w.admin.user.id),
    );
    return org.id;
  }

  async collection(): Promise<string> {
    return (await this.as({ method: 'post', path: `/v1/orgs/${this.w.org}/collections`, body: { title: 'Fresh' } })).id;
  }

  /** A space in the world's collection, like the world's space. */
  async space(): Promise<string> {
    return (
      await this.as({
        method: 'post',
        path: `/v1/orgs/${this.w.org}/spaces`,
        body: { title: 'Fresh space', parent: this.w.collection },
      })
    ).id;
  }

  async deletedSpace(): Promise<string> {
    const org = { id: this.w.org } as never;
    return (await insertSpace(this.server.ds, org, { parentId: this.w.collection, deleted: true })).id;
  }

  async spaceGrant(principal: 'user' | 'team'): Promise<string> {
    const space = await this.space();
    await grant(
      this.server.ds,
      this.w.org,
      'space',
      space,
      principal === 'user' ? this.w.spare.user.id : this.w.team,
      'read',
      principal,
    );
    return space;
  }

  async collectionGrant(principal: 'user' | 'team'): Promise<string> {
    const collection = (await insertCollection(this.server.ds, { id: this.w.org } as never)).id;
    await grant(
      this.server.ds,
      this.w.org,
      'collection',
      collection,
      principal === 'user' ? this.w.spare.user.id : this.w.team,
      'read',
      principal,
    );
    return collection;
  }

  /** A page of the world's space, or of `changeRequest`. */
  async page(changeRequest?: string): Promise<string> {
    const content = changeRequest
      ? `/v1/spaces/${this.w.space}/change-requests/${changeRequest}/content`
      : `/v1/spaces/${this.w.space}/content`;
    return (
      await this.as({ method: 'post', path: `${content}/pages`, body: { title: unique('Fresh '), markdown: 'Fresh.' } })
    ).id;
  }

  async file(changeRequest?: string): Promise<string> {
    const content = changeRequest
      ? `/v1/spaces/${this.w.space}/change-requests/${changeRequest}/content`
      : `/v1/spaces/${this.w.space}/content`;
    return (
      await this.as({
        method: 'post',
        path: `${content}/files`,
        query: { name: 'fresh.txt' },
        raw: { bytes: Buffer.from(unique('fresh ')), type: 'text/plain' },
      })
    ).id;
  }

  /** A change request of the world's space (of `space` when given) with a page of its own, so it has something to merge. */
  async changeRequest(space = this.w.space): Promise<string> {
    const cr = await this.as({
      method: 'post',
      path: `/v1/spaces/${space}/change-requests`,
      body: { subject: 'Fresh' },
    });
    await this.as({
      method: 'post',
      path: `/v1/spaces/${space}/change-requests/${cr.id}/content/pages`,
      body: { title: unique('Change '), markdown: 'Changed.' },
    });
    return cr.id;
  }

  /** A comment by the world's author on the world's space (or change request). */
  async comment(changeRequest?: string): Promise<string> {
    const base = changeRequest
      ? `/v1/spaces/${this.w.space}/change-requests/${changeRequest}/comments`
      : `/v1/spaces/${this.w.space}/comments`;
    return (
      await this.client.ok(this.w.author.token, { method: 'post', path: base, body: { body: { markdown: 'Fresh.' } } })
    ).id;
  }

  async reply(changeRequest?: string): Promise<string> {
    const base = changeRequest
      ? `/v1/spaces/${this.w.space}/change-requests/${changeRequest}/comments/${this.w.crComment}`
      : `/v1/spaces/${this.w.space}/comments/${this.w.comment}`;
    return (
      await this.client.ok(this.w.author.token, {
        method: 'post',
        path: `${base}/replies`,
        body: { body: { markdown: 'Fresh reply.' } },
      })
    ).id;
  }

  async importRun(): Promise<string> {
    const cr = await this.changeRequest();
    const run = await this.as({
      method: 'post',
      path: `/v1/spaces/${this.w.space}/change-requests/${cr}/content/import`,
      body: { url: 'https://docs.example.com/fresh', source: 'website' },
    });
    return run.id;
  }

  async member(): Promise<string> {
    return (await addMember(this.server.ds, { id: this.w.org } as never, 'read')).user.id;
  }

  async team(withSpare = false): Promise<string> {
    return (
      await this.as({
        method: 'put',
        path: `/v1/orgs/${this.w.org}/teams`,
        body: { title: unique('Fresh team '), ...(withSpare ? { members: [this.w.spare.user.id] } : {}) },
      })
    ).id;
  }

  async samlProvider(): Promise<string> {
    return (await this.as({ method: 'post', path: `/v1/orgs/${this.w.org}/saml`, body: { label: 'Fresh IdP' } })).id;
  }

  async linkInvite(): Promise<string> {
    const id = newId();
    await this.server.ds.manager.insert(LinkInvite, {
      id,
      organizationId: this.w.org,
      role: 'read',
      createdAt: new Date(),
    });
    return id;
  }

  async adminToken(): Promise<string> {
    return inTransaction(this.server.ds, async (db) => (await issueToken(db, this.w.admin.user.id, 'fresh')).token.id);
  }

  async spec(): Promise<string> {
    const slug = unique('fresh-');
    await this.as({
      method: 'post',
      path: `/v1/orgs/${this.w.org}/openapi`,
      body: { slug, source: { text: OPENAPI_TEXT } },
    });
    return slug;
  }

  async translation(): Promise<string> {
    return (
      await this.as({
        method: 'post',
        path: `/v1/orgs/${this.w.org}/translations`,
        body: { language: 'es', source: { space: this.w.space, language: 'en' } },
      })
    ).id;
  }

  /** A site shaped like the world's (visitor-auth, adaptive, sections X and Y, X in group G, a share link), published or not. */
  async site(published = true): Promise<SiteIds> {
    return buildSite(this.client, this.w.admin.token, this.w.org, this.w.space, this.w.space2, published);
  }

  /** A site with nothing in it. */
  async bareSite(): Promise<string> {
    return (await this.as({ method: 'post', path: `/v1/orgs/${this.w.org}/sites`, body: { title: 'Bare site' } })).id;
  }

  /** A newly published integration of the world's organization, unlisted, not installed anywhere. */
  async integration(): Promise<string> {
    const name = unique('matrix-fresh-');
    await this.as({ method: 'post', path: `/v1/integrations/${name}`, body: publishBody(this.w.org) });
    return name;
  }

  /** A fresh integration installed in the world's organization. */
  async installation(): Promise<{ name: string; id: string }> {
    const name = await this.integration();
    const installed = await this.as({
      method: 'post',
      path: `/v1/integrations/${name}/installations`,
      body: { organization: this.w.org },
    });
    return { name, id: installed.id };
  }

  /** An installation of the world's integration in a fresh organization of the admin's. */
  async installationOfIntegration(): Promise<string> {
    const org = await this.organization();
    return (
      await this.as({
        method: 'post',
        path: `/v1/integrations/${this.w.integration}/installations`,
        body: { organization: org },
      })
    ).id;
  }

  /** The world's installation installed on a fresh space (or site). */
  async installedOn(kind: 'space' | 'site'): Promise<string> {
    const id = kind === 'space' ? await this.space() : await this.bareSite();
    await this.as({
      method: 'post',
      path: `/v1/integrations/${this.w.integration}/installations/${this.w.installation}/${kind}s`,
      body: kind === 'space' ? { space: id } : { siteId: id },
    });
    return id;
  }
}

async function buildSite(
  client: Client,
  token: string,
  org: string,
  space: string,
  space2: string,
  published: boolean,
): Promise<SiteIds> {
  const as = (req: Req) => client.ok(token, req);
  const site = await as({
    method: 'post',
    path: `/v1/orgs/${org}/sites`,
    body: { title: 'Matrix site', visibility: 'visitor-auth' },
  });
  const base = `/v1/orgs/${org}/sites/${site.id}`;
  await as({ method: 'patch', path: base, body: { adaptiveContent: { enabled: true } } });
  await as({ method: 'put', path: `${base}/adaptive-schema`, body: { jsonSchema: ADAPTIVE_SCHEMA } });
  const sectionX = await as({ method: 'post', path: `${base}/sections`, body: { spaceId: space, title: 'Section X' } });
  const sectionY = await as({
    method: 'post',
    path: `${base}/sections`,
    body: { spaceId: space2, title: 'Section Y' },
  });
  const siteSpace = await as({
    method: 'post',
    path: `${base}/site-spaces`,
    body: { spaceId: space2, sectionId: sectionX.id },
  });
  const group = await as({
    method: 'post',
    path: `${base}/section-groups`,
    body: { title: 'Group G', sections: [sectionX.id] },
  });
  const shareLink = await as({ method: 'post', path: `${base}/share-links`, body: { name: 'Reviewers' } });
  if (published) await as({ method: 'post', path: `${base}/publish` });
  return {
    id: site.id,
    sectionX: sectionX.id,
    sectionY: sectionY.id,
    group: group.id,
    siteSpace: siteSpace.id,
    shareLink: shareLink.id,
  };
}

/** The world: every object, every caller. */
export async function buildWorld(server: TestServer, client: Client): Promise<World> {
  const { ds } = server;
  const { org, admin } = await createOrg(ds, unique('Matrix '));
  const outsider = await createOrg(ds, unique('Outsider '));
  const as = (req: Req) => client.ok(admin.token, req);
  const otherOrg = await inTransaction(ds, (db) =>
    createOrganization(db, { title: unique('Elsewhere ') }, admin.user.id),
  );

  const [guest, guestRead, read, comment, edit, review, create, spare] = [
    await addMember(ds, org, null),
    await addMember(ds, org, null),
    await addMember(ds, org, 'read'),
    await addMember(ds, org, 'comment'),
    await addMember(ds, org, 'edit'),
    await addMember(ds, org, 'review'),
    await addMember(ds, org, 'create'),
    await addMember(ds, org, 'read'),
  ];
  const visitorUser = await createUser(ds);
  const adminTokenId = await inTransaction(ds, async (db) => (await issueToken(db, admin.user.id, 'spare')).token.id);

  // content: a collection holding the space (the guest's read grant is on the collection), its pages, file, change request
  const collection = (await as({ method: 'post', path: `/v1/orgs/${org.id}/collections`, body: { title: 'Docs' } })).id;
  await grant(ds, org.id, 'collection', collection, guestRead.user.id, 'read');
  const space = (
    await as({ method: 'post', path: `/v1/orgs/${org.id}/spaces`, body: { title: 'Guide', parent: collection } })
  ).id;
  const space2 = (await as({ method: 'post', path: `/v1/orgs/${org.id}/spaces`, body: { title: 'Reference' } })).id;
  const selectedSpace = (await as({ method: 'post', path: `/v1/orgs/${org.id}/spaces`, body: { title: 'Selected' } }))
    .id;
  const deletedSpace = (await insertSpace(ds, org, { parentId: collection, deleted: true })).id;
  const content = `/v1/spaces/${space}/content`;
  const second = await as({
    method: 'post',
    path: `${content}/pages`,
    body: { title: 'Setup', markdown: 'Install it.' },
  });
  const page = await as({
    method: 'post',
    path: `${content}/pages`,
    body: { title: 'Guide', markdown: `Read [the setup](page:${second.id}).` },
  });
  const file = await as({
    method: 'post',
    path: `${content}/files`,
    query: { name: 'notes.txt' },
    raw: { bytes: Buffer.from('notes'), type: 'text/plain' },
  });
  const fileUrl = new URL(file.downloadURL);
  // the revision holding the page and the file, read by id
  const revision = (await as({ method: 'get', path: content })).id;
  const changeRequest = (
    await as({ method: 'post', path: `/v1/spaces/${space}/change-requests`, body: { subject: 'Rework' } })
  ).id;
  await as({
    method: 'post',
    path: `/v1/spaces/${space}/change-requests/${changeRequest}/content/pages`,
    body: { title: 'Draft', markdown: 'Draft.' },
  });

  // comments and replies by the `comment` member
  const by = (req: Req) => client.ok(comment.token, req);
  const spaceComments = `/v1/spaces/${space}/comments`;
  const crComments = `/v1/spaces/${space}/change-requests/${changeRequest}/comments`;
  const spaceComment = (await by({ method: 'post', path: spaceComments, body: { body: { markdown: 'Clear?' } } })).id;
  const reply = (
    await by({ method: 'post', path: `${spaceComments}/${spaceComment}/replies`, body: { body: { markdown: 'Yes.' } } })
  ).id;
  const crComment = (await by({ method: 'post', path: crComments, body: { body: { markdown: 'Ready?' } } })).id;
  const crReply = (
    await by({ method: 'post', path: `${crComments}/${crComment}/replies`, body: { body: { markdown: 'Soon.' } } })
  ).id;
  const crReview = (
    await as({
      method: 'post',
      path: `/v1/spaces/${space}/change-requests/${changeRequest}/reviews`,
      body: { status: 'changes-requested' },
    })
  ).id;

  // the organization's own objects
  const team = (
    await as({ method: 'put', path: `/v1/orgs/${org.id}/teams`, body: { title: 'Writers', members: [spare.user.id] } })
  ).id;
  await grant(ds, org.id, 'space', space, spare.user.id, 'read');
  await grant(ds, org.id, 'space', space, team, 'read', 'team');
  await grant(ds, org.id, 'collection', collection, spare.user.id, 'read');
  await grant(ds, org.id, 'collection', collection, team, 'read', 'team');
  const samlProvider = (await as({ method: 'post', path: `/v1/orgs/${org.id}/saml`, body: { label: 'Corporate IdP' } }))
    .id;
  const linkInvite = newId();
  await ds.manager.insert(LinkInvite, { id: linkInvite, organizationId: org.id, role: 'read', createdAt: new Date() });

  // an OpenAPI spec with a version: created through the API (its run goes to the private queue, where no worker
  // runs), then its two steps run here; then made public for the published routes
  const specSlug = 'matrix-api';
  await as({
    method: 'post',
    path: `/v1/orgs/${org.id}/openapi`,
    body: { slug: specSlug, source: { text: OPENAPI_TEXT } },
  });
  const spec = await ds.manager.findOneByOrFail(OpenAPISpec, { organizationId: org.id, slug: specSlug });
  const steps = {
    ds,
    blobs: createBlobStore(server.config),
    fetch: new GuardedFetch(server.config.fetch),
    logger: pino({ level: 'silent' }),
    versionsKept: 20,
    bundleMaxBytes: server.config.openapi.bundleMaxBytes,
  };
  const ref = jobRef(openapiProcessJob, spec);
  const specVersion = (await saveSpecVersion(steps, ref, await bundleSpecSource(steps, ref), new Date()))!;
  await steps.fetch.close();
  await as({ method: 'patch', path: `/v1/orgs/${org.id}/openapi/${specSlug}`, body: { visibility: 'public' } });

  const translation = (
    await as({
      method: 'post',
      path: `/v1/orgs/${org.id}/translations`,
      body: { language: 'fr', source: { space, language: 'en' } },
    })
  ).id;
  const importRun = (
    await as({
      method: 'post',
      path: `${content}/import`,
      body: { url: 'https://docs.example.com/start', source: 'website' },
    })
  ).id;
  // a PDF export of the change request (202: rendered by no one)
  await as({ method: 'get', path: `/v1/spaces/${space}/change-requests/${changeRequest}/pdf` });

  // the site: published, visitor-auth, with its signing key for the visitor's token
  const site = await buildSite(client, admin.token, org.id, space, space2, true);
  const selectedSite = (
    await as({ method: 'post', path: `/v1/orgs/${org.id}/sites`, body: { title: 'Selected site' } })
  ).id;
  const key = (await as({ method: 'get', path: `/v1/orgs/${org.id}/sites/${site.id}/publishing/auth` })).privateKey;
  const visitorToken = await new SignJWT({ isBetaUser: true })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(key));

  // the integration (unlisted, every scope), installed here on a selection (the scoped token's installation,
  // its events), and in the outsider's organization (the other installation)
  const integration = unique('matrix-');
  await as({
    method: 'post',
    path: `/v1/integrations/${integration}`,
    body: publishBody(org.id, [...INTEGRATION_SCOPES]),
  });
  const installation = (
    await as({ method: 'post', path: `/v1/integrations/${integration}/installations`, body: { organization: org.id } })
  ).id;
  const item = `/v1/integrations/${integration}/installations/${installation}`;
  await as({ method: 'patch', path: item, body: { space_selection: 'selected', site_selection: 'selected' } });
  await as({ method: 'post', path: `${item}/spaces`, body: { space: selectedSpace } });
  await as({ method: 'post', path: `${item}/sites`, body: { siteId: selectedSite } });
  const outsiderInstallation = (
    await client.ok(outsider.admin.token, {
      method: 'post',
      path: `/v1/integrations/${integration}/installations`,
      body: { organization: outsider.org.id },
    })
  ).id;
  const event = (
    await ds.manager.findOneByOrFail(IntegrationEvent, { installationId: installation, type: 'installation_setup' })
  ).id;

  // an integration of the outsider's with no scope, installed here on everything
  const unscoped = await insertIntegration(ds, outsider.org.id, [], { visibility: 'unlisted' });
  const unscopedInstallation = await insertInstallation(ds, unscoped, org.id);

  const tokens = await inTransaction(ds, async (db) => {
    const integrationRow = await db.findOneByOrFail(Integration, { name: integration });
    const installationRow = await db.findOneByOrFail(IntegrationInstallation, { id: installation });
    const outsiderRow = await db.findOneByOrFail(IntegrationInstallation, { id: outsiderInstallation });
    const config = server.config;
    const own = await issueIntegrationTokens(db, config, {
      integration: integrationRow,
      installation: installationRow,
    });
    const other = await issueIntegrationTokens(db, config, { integration: integrationRow, installation: outsiderRow });
    const none = await issueIntegrationTokens(db, config, {
      integration: unscoped,
      installation: unscopedInstallation,
    });
    return {
      scoped: own.installation!,
      integration: own.integration,
      other: other.installation!,
      none: none.installation!,
    };
  });

  return {
    org: org.id,
    outsiderOrg: outsider.org.id,
    otherOrg: otherOrg.id,
    tokens: {
      anonymous: null,
      outsider: outsider.admin.token,
      guest: guest.token,
      guestRead: guestRead.token,
      read: read.token,
      comment: comment.token,
      edit: edit.token,
      review: review.token,
      create: create.token,
      admin: admin.token,
      installationNoScopes: tokens.none,
      installationScoped: tokens.scoped,
      otherInstallation: tokens.other,
      integration: tokens.integration,
      visitor: visitorUser.token,
    },
    admin,
    author: comment,
    spare,
    adminTokenId,
    collection,
    space,
    deletedSpace,
    space2,
    selectedSpace,
    revision,
    page: page.id,
    pagePath: page.path,
    file: file.id,
    blobUrl: `${fileUrl.pathname}${fileUrl.search}`,
    changeRequest,
    comment: spaceComment,
    reply,
    crComment,
    crReply,
    review: crReview,
    team,
    samlProvider,
    linkInvite,
    specSlug,
    specVersion,
    translation,
    importRun,
    site,
    selectedSite,
    integration,
    installation,
    event,
    signingKey: key,
    visitorToken,
  };
}
