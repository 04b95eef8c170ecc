/**
 * Decides the status of extracted links against one revision: a page, file or path link is `ok`
 * when its target exists there, else `broken`; a URL into the app is `in-app`; other URLs are `ok`
 * (the service does not fetch them). Space links are checked against live spaces, OpenAPI links
 * against the organization's specifications.
 */
import { In, IsNull } from 'typeorm';
import { Space } from '../../entities/Space';
import type { LinkStatus } from '../../entities/SpaceLink';
import type { Db } from '../../platform/db/transactions';
import { existingSpecSlugs } from '../links/openapi-links';
import type { ExtractedLink } from './model';
import type { ContentReader } from './reader';

export interface ResolvedLink extends ExtractedLink {
  status: LinkStatus;
  /** the page a path link points to, when it resolves */
  resolvedPageId?: string;
}

/** What deciding a link's status needs beyond the revision: where the app lives, and whose content it is. */
export interface LinkContext {
  appBaseUrl: string;
  /** space links count only within this organization: another organization's spaces are never revealed */
  organizationId: string;
}

/** A URL into the app: same origin as APP_BASE_URL and under its path (a look-alike host is not). */
export function isInApp(url: string, appBaseUrl: string): boolean {
  try {
    const target = new URL(url);
    const app = new URL(appBaseUrl);
    const base = app.pathname.endsWith('/') ? app.pathname : `${app.pathname}/`;
    return target.origin === app.origin && (target.pathname === app.pathname || target.pathname.startsWith(base));
  } catch {
    return false;
  }
}

export async function resolveLinks(
  db: Db,
  reader: ContentReader,
  links: ExtractedLink[],
  context: LinkContext,
): Promise<ResolvedLink[]> {
  const pageIds = links.filter((l) => l.kind === 'page' && !l.byPath).map((l) => l.target);
  const fileIds = links.filter((l) => l.kind === 'file').map((l) => l.target);
  const spaceIds = links.filter((l) => l.kind === 'space').map((l) => l.target);
  const specSlugs = links.filter((l) => l.kind === 'openapi').map((l) => l.target);
  const [pages, files, spaces, specs] = await Promise.all([
    pageIds.length ? reader.hasPages(pageIds) : new Set<string>(),
    fileIds.length ? reader.hasFiles(fileIds) : new Set<string>(),
    spaceIds.length
      ? db
          .find(Space, {
            where: { id: In(spaceIds), organizationId: context.organizationId, deletedAt: IsNull() },
            select: { id: true },
          })
          .then((r) => new Set(r.map((s) => s.id)))
      : new Set<string>(),
    existingSpecSlugs(db, context.organizationId, specSlugs),
  ]);
  const out: ResolvedLink[] = [];
  for (const link of links) {
    switch (link.kind) {
      case 'page':
        if (link.byPath) {
          const resolvedPageId = await reader.pageIdByPath(link.target);
          out.push({
            ...link,
            status: resolvedPageId ? 'ok' : 'broken',
            ...(resolvedPageId ? { resolvedPageId } : {}),
          });
        } else out.push({ ...link, status: pages.has(link.target) ? 'ok' : 'broken' });
        break;
      case 'file':
        out.push({ ...link, status: files.has(link.target) ? 'ok' : 'broken' });
        break;
      case 'space':
        out.push({ ...link, status: spaces.has(link.target) ? 'ok' : 'broken' });
        break;
      case 'url':
        out.push({ ...link, status: isInApp(link.target, context.appBaseUrl) ? 'in-app' : 'ok' });
        break;
      case 'openapi':
        out.push({ ...link, status: specs.has(link.target) ? 'ok' : 'broken' });
        break;
    }
  }
  return out;
}
