/** A single page as the page reads and writes answer it: its body plus its whole subtree, and its ETag. */

import { createHash } from 'crypto';
import { describeChangeRequests } from '../../../domain/content/change-request-queries';
import { markdownToDocument } from '../../../domain/content/document';
import type { ContentReader, PageNode, PageRecord } from '../../../domain/content/reader';
import { evaluateVariables } from '../../../domain/content/variables';
import { ChangeRequest } from '../../../entities/ChangeRequest';
import type { Revision } from '../../../entities/Revision';
import type { Space } from '../../../entities/Space';
import type { Db } from '../../../platform/db/transactions';
import type { Presented } from '../../../platform/wire/to-wire';
import { changeRequestSchema, presentChangeRequest } from '../../presenters/change-request';
import { presentDocument } from '../../presenters/gitbook-document';
import { PageBody, PageJson, presentPage, presentPageTree } from '../../presenters/page';
import type { Urls } from '../../presenters/urls';
import type { ReadTarget } from './target';

/** `body` is the page's own, in the requested form; the pages under it carry their stored markdown. */
export async function presentPageWithChildren(
  reader: ContentReader,
  page: PageRecord,
  body: PageBody,
  target: ReadTarget,
  urls: Urls,
): Promise<PageJson> {
  return (await presentTaggedPage(reader, page, body, target, urls)).body;
}

/**
 * The same with the answer's ETag, from the same reads. `variables`: those the body was evaluated with, if it was.
 */
export async function presentTaggedPage(
  reader: ContentReader,
  page: PageRecord,
  body: PageBody,
  target: ReadTarget,
  urls: Urls,
  variables?: Revision['variables'],
): Promise<{ body: PageJson; etag: string }> {
  const subtree = await reader.subtree(page);
  return {
    body: presentPage(page, urls, target.appPath, body, presentPageTree(subtree, urls, target.appPath)),
    etag: pageTag(page, subtree, target, variables),
  };
}

/**
 * A page answer's ETag: the content-addressed id of the page's version (its title, markdown and the rest of its
 * own fields), then a short digest of what the answer adds: where it is seen (the content's app path, in its
 * URL), its path, and each page under it (id, slug, version id, in order). Bodies are never hashed again (a version id already names one), and an edit to a
 * page outside the answer changes none of it. Evaluated variables, when the body has them, join the digest.
 */
export function pageTag(
  page: PageRecord,
  subtree: PageNode[],
  target: ReadTarget,
  variables?: Revision['variables'],
): string {
  const digest = createHash('sha256').update(`${target.appPath}\u0000${page.path}`);
  const walk = (nodes: PageNode[]): void => {
    for (const node of nodes) {
      digest.update(`\u0000${node.id}\u0000${node.entry.slug}\u0000${node.entry.v}(`);
      walk(node.children);
      digest.update(')');
    }
  };
  walk(subtree);
  if (variables) digest.update(`\u0000${JSON.stringify(variables)}`);
  return `"${page.entry.v}.${digest.digest('base64url').slice(0, 22)}"`;
}

/** A page's markdown in `revision`, with the revision variables filled in or not. */
export function pageMarkdown(page: PageRecord, revision: Revision, evaluated: boolean): string {
  return evaluated ? evaluateVariables(page.version.markdown, revision.variables) : page.version.markdown;
}

/** A page's own body in `revision`: its markdown or GitBook's document. */
export function pageBody(
  page: PageRecord,
  revision: Revision,
  format: 'markdown' | 'document',
  evaluated: boolean,
): PageBody {
  const markdown = pageMarkdown(page, revision, evaluated);
  return format === 'document' ? { document: presentDocument(markdownToDocument(markdown)) } : { markdown };
}

/** GitBook's merge revision names the change request it merged. */
export async function mergedFromOf(
  db: Db,
  revision: Revision,
  space: Space,
  urls: Urls,
): Promise<Presented<typeof changeRequestSchema> | undefined> {
  const merged =
    revision.type === 'merge' && revision.changeRequestId
      ? await db.findOneBy(ChangeRequest, { id: revision.changeRequestId })
      : null;
  const [described] = merged ? await describeChangeRequests(db, [merged]) : [];
  return described && presentChangeRequest(described, space, urls);
}
