/** Translation test helpers: a space of generated pages, requests on translations, waiting for a run. */
import type { Head } from '../../domain/content/heads';
import { Space } from '../../entities/Space';
import type { Actor } from '../factories';
import { Json, newSpace } from './api';
import { readRevision, writeHead } from './heads';
import type { TestServer } from './server';

export const translationsPath = (orgId: string, id = '') => `/v1/orgs/${orgId}/translations${id ? `/${id}` : ''}`;

/** The markdown of generated page `n`: prose around code, links, an image, a variable and a table. */
export function pageMarkdown(n: number, extra = ''): string {
  return [
    `Page ${n} explains how the widget works.${extra}`,
    '',
    `Run \`widget --page ${n}\` first, then read [the setup guide](https://example.com/setup/${n}) and [the next page](page:p${n + 1}).`,
    '',
    '```bash',
    `echo "Hello from page ${n}"`,
    '```',
    '',
    `![Architecture diagram](https://example.com/img/${n}.png) shows {{ variables.product }} at work.`,
    '',
    '| Setting | Default |',
    '| --- | --- |',
    `| Colour | \`blue-${n}\` |`,
  ].join('\n');
}

/** A space (created through the API) with `count` pages: 10 top-level pages, the rest under them. */
export async function spaceWithPages(
  server: TestServer,
  actor: Actor,
  orgId: string,
  count: number,
): Promise<{ space: Json; pageIds: string[] }> {
  const space = await newSpace(server, actor, orgId, { title: 'Widget guide' });
  const head: Head = { kind: 'space', spaceId: space.id };
  const { result: pageIds } = await writeHead(server, head, actor.user.id, async (editor) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const parent = n < 10 ? null : ids[n % 10];
      ids.push(
        await editor.createPage(
          {
            title: `Widget page ${n}`,
            description: `About widget page ${n}`,
            markdown: pageMarkdown(n),
            emoji: n % 2 ? '📘' : null,
          },
          { parent },
        ),
      );
    }
    return ids;
  });
  return { space, pageIds };
}

/** Changes the text of the given pages of a space. */
export async function editPages(
  server: TestServer,
  actor: Actor,
  spaceId: string,
  pageIds: string[],
  extra = ' It changed.',
): Promise<void> {
  await writeHead(server, { kind: 'space', spaceId }, actor.user.id, async (editor) => {
    for (const id of pageIds)
      await editor.updatePage(id, {
        markdown: pageMarkdown(Number((await editor.page(id))!.title.split(' ').pop()), extra),
      });
  });
}

/** Polls the translation until it is completed or failed (and, with `runs`, has that many runs). */
export async function settled(
  server: TestServer,
  actor: Actor,
  orgId: string,
  id: string,
  options: { runs?: number; timeoutMs?: number } = {},
): Promise<Json> {
  const deadline = Date.now() + (options.timeoutMs ?? 60000);
  for (;;) {
    const { body } = await server.as(actor.token).get(translationsPath(orgId, id)).expect(200);
    if (
      (body.status === 'completed' || body.status === 'failed') &&
      (options.runs === undefined || body.stats.runs >= options.runs || body.status === 'failed')
    )
      return body;
    if (Date.now() > deadline) throw new Error(`translation ${id} did not settle: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The pages of a space's current revision, in tree order, flattened. */
export async function spacePages(
  server: TestServer,
  spaceId: string,
): Promise<
  Array<{
    id: string;
    parent: string | null;
    slug: string;
    title: string;
    markdown: string;
    description: string | null;
    v: string;
  }>
> {
  const space = await server.ds.manager.findOneByOrFail(Space, { id: spaceId });
  const reader = await readRevision(server, space.revisionId!);
  const out: Array<{
    id: string;
    parent: string | null;
    slug: string;
    title: string;
    markdown: string;
    description: string | null;
    v: string;
  }> = [];
  const walk = (nodes: Awaited<ReturnType<typeof reader.tree>>, parent: string | null) => {
    for (const n of nodes) {
      out.push({
        id: n.id,
        parent,
        slug: n.entry.slug,
        title: n.version.title,
        markdown: n.version.markdown,
        description: n.version.description,
        v: n.entry.v,
      });
      walk(n.children, n.id);
    }
  };
  walk(await reader.tree(), null);
  return out;
}
