/** A single page as the page reads and writes answer it: its body plus its direct children as summaries. */
import type { ContentReader, PageRecord } from '../../../domain/content/reader';
import { PageBody, PageJson, presentPage } from '../../presenters/page';
import type { Urls } from '../../presenters/urls';
import type { ContentTarget } from './target';

export async function presentPageWithChildren(reader: ContentReader, page: PageRecord, body: PageBody, target: ContentTarget, urls: Urls): Promise<PageJson> {
  const children = await Promise.all((await reader.childIds(page.id)).map((id) => reader.page(id)));
  const summaries = children.filter((c): c is PageRecord => c !== undefined).map((child) => presentPage(child, urls, target.appPath, {}));
  return presentPage(page, urls, target.appPath, body, summaries);
}
