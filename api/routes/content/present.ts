/** A single page as the page reads and writes answer it: its body plus its whole subtree. */
import type { ContentReader, PageRecord } from '../../../domain/content/reader';
import { PageBody, PageJson, presentPage, presentPageTree } from '../../presenters/page';
import type { Urls } from '../../presenters/urls';
import type { ContentTarget } from './target';

/** `body` is the page's own, in the requested form; the pages under it carry their stored markdown. */
export async function presentPageWithChildren(
  reader: ContentReader,
  page: PageRecord,
  body: PageBody,
  target: ContentTarget,
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
