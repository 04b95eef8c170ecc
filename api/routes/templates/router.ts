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
      tags: ['templates'],
      extension: true,
      summary: 'List the content templates and the file slots each declares',
      responses: { 200: { description: 'templates', schema: z.object({ items: z.array(templateSchema) }) } },
    },
    async () => ({ status: 200, body: { items: TEMPLATES.map(presentTemplate) } }),
  );

  api.op(
    {
      method: 'post',
      path: '/v1/spaces/{spaceId}/content/template',
      operationId: 'applySpaceTemplate',
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
