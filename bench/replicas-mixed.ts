/**
 * The replicas benchmark's mixed load: an organization of several members, each with a token, made through the
 * API replicas (spaces with pages, change requests to export, an integration in development mode whose events go to
 * a tunnel on loopback), then request n of the load: reads, writes, merges, comments, replies and reactions, and
 * every 100th a job request, by turns an import, a PDF export, a translation, an OpenAPI specification and a space
 * deleted to be purged. What answered 2xx is remembered, so the counters can be checked against it afterwards.
 */
import { randomBytes } from 'crypto';
import type { Answer, Replicas } from './replicas-load';

export interface Member {
  userId: string;
  token: string;
}

interface ContentSpace {
  id: string;
  pageIds: string[];
}

interface ChangeRequest {
  spaceId: string;
  id: string;
  edits: number;
  merging: boolean;
  merged: boolean;
}

interface CommentThread {
  spaceId: string;
  id: string;
  resolving: boolean;
}

/** What the load expects the rows to say, from the answers that were 2xx. */
export interface Expected {
  changeRequestsBySpace: Map<string, number>;
  mergedBySpace: Map<string, number>;
  openCommentsBySpace: Map<string, number>;
  repliesByComment: Map<string, number>;
  /** `commentId emoji userId` of every reaction added */
  reactions: Set<string>;
  /** spaces deleted (their purge asked for) */
  deletedSpaces: string[];
  jobRequests: Record<string, number>;
}

const LANGUAGES = ['fr', 'de', 'es', 'it', 'nl', 'pt', 'sv', 'da', 'fi', 'pl', 'ja', 'ko', 'cs', 'tr', 'el', 'ro'];
const EMOJI = ['👍', '🎉', '❤️', '🚀', '👀'];
/** Out of every 100 requests, one is a job request; the others follow this cycle. */
const CYCLE = [
  'readSpace',
  'readPage',
  'listSpaces',
  'writePage',
  'readPage',
  'comment',
  'readSpace',
  'react',
  'search',
  'editChangeRequest',
  'readPage',
  'reply',
  'updatePage',
  'readSpace',
  'listComments',
  'createChangeRequest',
  'readPage',
  'react',
  'mergeChangeRequest',
  'resolveComment',
] as const;
const JOB_KINDS = ['import', 'pdf', 'translation', 'openapi', 'purge'] as const;

/** A small OpenAPI 3 document, processed by the `openapi-process` job. */
const OPENAPI_TEXT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        responses: { 200: { description: 'the pets', content: { 'application/json': { schema: { type: 'array' } } } } },
      },
    },
  },
});

const markdown = (what: string) =>
  `${what} explains one setting of the product.\n\n## Details\n\nThe setting takes a value between 1 and 100.\n`;

function expect2xx(answer: Answer, what: string): any {
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json;
}

export class MixedLoad {
  readonly expected: Expected = {
    changeRequestsBySpace: new Map(),
    mergedBySpace: new Map(),
    openCommentsBySpace: new Map(),
    repliesByComment: new Map(),
    reactions: new Set(),
    deletedSpaces: [],
    jobRequests: {},
  };
  readonly contentSpaces: ContentSpace[] = [];
  readonly comments: CommentThread[] = [];
  private readonly changeRequests: ChangeRequest[] = [];
  private readonly pdfChangeRequests: Array<{ spaceId: string; id: string }> = [];
  private readonly importSpaces: string[] = [];
  private translationSource = '';
  private jobTurn = 0;

  constructor(
    private readonly replicas: Replicas,
    readonly organizationId: string,
    readonly members: Member[],
    /** the website the imports read (`<base>/site/`) */
    private readonly siteUrl: string,
  ) {}

  private add(map: Map<string, number>, key: string, by = 1): void {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  private async newSpace(title: string): Promise<string> {
    const owner = this.members[0];
    return expect2xx(
      await this.replicas.call(0, 'setup', owner.token, 'POST', `/v1/orgs/${this.organizationId}/spaces`, { title }),
      'creating a space',
    ).id;
  }

  /**
   * The content the load works on, written through both replicas: `spaces` spaces of `pages` pages, change requests
   * with an edit each for the PDF exports, empty spaces for the imports, a small space to translate.
   */
  async build(spaces: number, pages: number, jobsOfEachKind: number): Promise<void> {
    const owner = this.members[0];
    for (let s = 0; s < spaces; s++) {
      const space: ContentSpace = { id: await this.newSpace(`Handbook ${s}`), pageIds: [] };
      for (let p = 0; p < pages; p++) {
        const page = await this.replicas.call(p, 'setup', owner.token, 'POST', `/v1/spaces/${space.id}/content/pages`, {
          title: `Page ${p}`,
          markdown: markdown(`Page ${p}`),
        });
        space.pageIds.push(expect2xx(page, 'writing a page').id);
      }
      this.contentSpaces.push(space);
    }
    const pdfSpace = await this.newSpace('Exported handbook');
    for (let i = 0; i < jobsOfEachKind; i++) {
      const cr = expect2xx(
        await this.replicas.call(i, 'setup', owner.token, 'POST', `/v1/spaces/${pdfSpace}/change-requests`, {
          subject: `Export ${i}`,
        }),
        'creating a change request',
      );
      this.add(this.expected.changeRequestsBySpace, pdfSpace);
      expect2xx(
        await this.replicas.call(
          i,
          'setup',
          owner.token,
          'POST',
          `/v1/spaces/${pdfSpace}/change-requests/${cr.id}/content/pages`,
          {
            title: `Chapter ${i}`,
            markdown: markdown(`Chapter ${i}`),
          },
        ),
        'editing a change request',
      );
      this.pdfChangeRequests.push({ spaceId: pdfSpace, id: cr.id });
      this.importSpaces.push(await this.newSpace(`Imported ${i}`));
    }
    this.translationSource = await this.newSpace('Translated handbook');
    for (let p = 0; p < 3; p++)
      expect2xx(
        await this.replicas.call(
          p,
          'setup',
          owner.token,
          'POST',
          `/v1/spaces/${this.translationSource}/content/pages`,
          {
            title: `Guide ${p}`,
            markdown: markdown(`Guide ${p}`),
          },
        ),
        'writing a page',
      );
  }

  /** Request n of the load, to replica n mod 2, by member n mod members. */
  async send(n: number): Promise<void> {
    if (n % 100 === 50) return this.jobRequest(n);
    const op = CYCLE[n % CYCLE.length];
    const who = this.members[n % this.members.length];
    const space = this.contentSpaces[Math.floor(n / CYCLE.length) % this.contentSpaces.length];
    const pageId = space.pageIds[(n * 7) % space.pageIds.length];
    const call = (method: string, url: string, body?: unknown) =>
      this.replicas.call(n, op, who.token, method, url, body);
    const ok = (a: Answer) => a.status >= 200 && a.status < 300;
    switch (op) {
      case 'readSpace':
        return void (await call('GET', `/v1/spaces/${space.id}`));
      case 'readPage':
        return void (await call('GET', `/v1/spaces/${space.id}/content/page/${pageId}`));
      case 'listSpaces':
        return void (await call('GET', `/v1/orgs/${this.organizationId}/spaces`));
      case 'search':
        return void (await call('GET', `/v1/spaces/${space.id}/search?query=setting`));
      case 'listComments':
        return void (await call('GET', `/v1/spaces/${space.id}/comments`));
      case 'writePage': {
        const a = await call('POST', `/v1/spaces/${space.id}/content/pages`, {
          title: `Written ${n}`,
          markdown: markdown(`Written ${n}`),
        });
        if (ok(a)) space.pageIds.push(a.json.id);
        return;
      }
      case 'updatePage':
        return void (await call('PATCH', `/v1/spaces/${space.id}/content/page/${pageId}`, {
          markdown: markdown(`Page edited by request ${n}`),
        }));
      case 'createChangeRequest': {
        const a = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Change ${n}` });
        if (!ok(a)) return;
        this.add(this.expected.changeRequestsBySpace, space.id);
        this.changeRequests.push({ spaceId: space.id, id: a.json.id, edits: 0, merging: false, merged: false });
        return;
      }
      case 'editChangeRequest': {
        const cr = this.changeRequests.filter((c) => !c.merging && !c.merged).at(-1);
        if (!cr) return void (await call('GET', `/v1/spaces/${space.id}/change-requests`));
        const a = await this.replicas.call(
          n,
          op,
          who.token,
          'POST',
          `/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/content/pages`,
          {
            title: `Proposed ${n}`,
            markdown: markdown(`Proposed ${n}`),
          },
        );
        if (ok(a)) cr.edits++;
        return;
      }
      case 'mergeChangeRequest': {
        const cr = this.changeRequests.find((c) => c.edits > 0 && !c.merging && !c.merged);
        if (!cr) return void (await call('GET', `/v1/spaces/${space.id}/change-requests`));
        cr.merging = true;
        const a = await this.replicas.call(
          n,
          op,
          who.token,
          'POST',
          `/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/merge`,
        );
        cr.merging = false;
        if (ok(a)) {
          cr.merged = true;
          this.add(this.expected.mergedBySpace, cr.spaceId);
        }
        return;
      }
      case 'comment': {
        const a = await call('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: `Comment ${n}` } });
        if (!ok(a)) return;
        this.add(this.expected.openCommentsBySpace, space.id);
        this.comments.push({ spaceId: space.id, id: a.json.id, resolving: false });
        return;
      }
      case 'reply': {
        const thread = this.comments.at(-1 - (n % 3));
        if (!thread) return void (await call('GET', `/v1/spaces/${space.id}/comments`));
        const a = await this.replicas.call(
          n,
          op,
          who.token,
          'POST',
          `/v1/spaces/${thread.spaceId}/comments/${thread.id}/replies`,
          {
            body: { markdown: `Reply ${n}` },
          },
        );
        if (ok(a)) this.add(this.expected.repliesByComment, thread.id);
        return;
      }
      case 'react': {
        const thread = this.comments.at(-1 - (n % 4));
        if (!thread) return void (await call('GET', `/v1/spaces/${space.id}/comments`));
        const emoji = EMOJI[n % EMOJI.length];
        const a = await this.replicas.call(
          n,
          op,
          who.token,
          'PUT',
          `/v1/spaces/${thread.spaceId}/comments/${thread.id}`,
          {
            addedReactions: [emoji],
          },
        );
        if (ok(a)) this.expected.reactions.add(`${thread.id} ${emoji} ${who.userId}`);
        return;
      }
      case 'resolveComment': {
        // the oldest open thread, resolved once: resolving twice counts once, and the load expects exactly that
        const thread = this.comments.find((c) => !c.resolving);
        if (!thread) return void (await call('GET', `/v1/spaces/${space.id}/comments`));
        thread.resolving = true;
        const a = await this.replicas.call(
          n,
          op,
          who.token,
          'PUT',
          `/v1/spaces/${thread.spaceId}/comments/${thread.id}`,
          {
            resolved: true,
          },
        );
        if (ok(a)) this.add(this.expected.openCommentsBySpace, thread.spaceId, -1);
        else thread.resolving = false;
        return;
      }
    }
  }

  /** A job request: the kinds by turns, each one on a resource of its own. */
  private async jobRequest(n: number): Promise<void> {
    const kind = JOB_KINDS[this.jobTurn % JOB_KINDS.length];
    const i = Math.floor(this.jobTurn / JOB_KINDS.length);
    this.jobTurn++;
    const who = this.members[n % this.members.length];
    const op = `job:${kind}`;
    const call = (method: string, url: string, body?: unknown) =>
      this.replicas.call(n, op, who.token, method, url, body);
    this.expected.jobRequests[kind] = (this.expected.jobRequests[kind] ?? 0) + 1;
    switch (kind) {
      case 'import': {
        const space = this.importSpaces[i % this.importSpaces.length];
        return void (await call('POST', `/v1/spaces/${space}/content/import`, {
          url: `${this.siteUrl}/site/`,
          source: 'website',
        }));
      }
      case 'pdf': {
        const cr = this.pdfChangeRequests[i % this.pdfChangeRequests.length];
        return void (await call('GET', `/v1/spaces/${cr.spaceId}/change-requests/${cr.id}/pdf`));
      }
      case 'translation':
        return void (await call('POST', `/v1/orgs/${this.organizationId}/translations`, {
          language: LANGUAGES[i % LANGUAGES.length],
          source: { space: this.translationSource, language: 'en' },
        }));
      case 'openapi':
        return void (await call('POST', `/v1/orgs/${this.organizationId}/openapi`, {
          slug: `pets-${i}-${randomBytes(3).toString('hex')}`,
          source: { text: OPENAPI_TEXT },
        }));
      case 'purge': {
        const created = await call('POST', `/v1/orgs/${this.organizationId}/spaces`, { title: `Doomed ${i}` });
        if (created.status !== 201) return;
        const deleted = await call('DELETE', `/v1/spaces/${created.json.id}`);
        if (deleted.status === 204) this.expected.deletedSpaces.push(created.json.id);
        return;
      }
    }
  }
}
