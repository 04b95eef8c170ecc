/** Content templates: the catalogue (extension) and applying one to a space. */
import { z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import { TEMPLATES } from '../../../domain/content/templates';
import { applyTemplate } from '../../../domain/content/templates/apply';
import { inTransaction } from '../../../platform/db/transactions';
import { loadSpace } from '../../loaders';
import type { ApiBuilder } from '../../operation';
import { presentTemplate, templateSchema } from '../../presenters/template';
import { spaceIdParams } from '../spaces/schema';
import { applyTemplateBody } from './schema';

export function templateRoutes(api: ApiBuilder): void {
  const { config } = api.deps;

  api.op(
    {
      method: 'get',
      path: '/v1/templates',
      operationId: 'listTemplates',
      description:
        'Lists the built-in content templates, each with the file slots it can show. Any authenticated caller may list them; the catalogue is the same for everyone. Changes nothing.',
      tags: ['templates'],
      extension: true,
      summary: 'List the content templates and the file slots each declares',
      responses: {
        200: {
          description: 'templates',
          schema: z.object({
            items: z.array(templateSchema).openapi({ description: 'every template, in catalogue order' }),
          }),
        },
      },
    },
    async () => ({ status: 200, body: { items: TEMPLATES.map(presentTemplate) } }),
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/content/template',
      operationId: 'applySpaceTemplate',
      description:
        "Adds the template's pages after the space's root pages, with the files named in `params.contentRefs` bound to its slots (each a file of the space's current revision), as one `template` revision. Needs `edit` on the space. The search and link indexes follow in the same transaction and integrations installed on the space get `space_content_updated` (integration event dispatch job); 409 when the space is locked.",
      tags: ['templates'],
      summary: "Add a template's pages after the space's root pages, as one new revision",
      params: spaceIdParams,
      body: applyTemplateBody,
      responses: { 201: { description: 'applied' } },
    },
    async ({ params, body, access, caller }) => {
      const space = await loadSpace(access, params.spaceId);
      await authorize(access, { kind: 'space', space }, 'edit');
      await inTransaction(api.deps, (db) =>
        applyTemplate(
          db,
          space.id,
          { id: body.id, contentRefs: body.params?.contentRefs ?? {} },
          { createdById: caller.userId, appBaseUrl: config.appBaseUrl },
        ),
      );
      return { status: 201 };
    },
  );
}
