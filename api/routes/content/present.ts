/** A single page as the page reads and writes answer it: its body plus its whole subtree. */

import { describeChangeRequests } from '../../../domain/content/change-request-queries';
import { markdownToDocument } from '../../../domain/content/document';
import type { ContentReader, PageRecord } from '../../../domain/content/reader';
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
  return presentPage(
    page,
    urls,
    target.appPath,
    body,
    presentPageTree(await reader.subtree(page), urls, target.appPath),
  );
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
