import { z } from 'zod';
import { resourceId, text } from '../../schemas';

const fileRef = z
  .object({
    kind: z.literal('file').openapi({ description: 'always `file`' }),
    file: resourceId.openapi({ description: "id of a file of the space's current revision" }),
  })
  .strict();

export const applyTemplateBody = z
  .object({
    id: text({ min: 1, max: 64 }).openapi({ description: 'id of the template, as listed by GET /v1/templates' }),
    params: z
      .object({
        contentRefs: z
          .record(text({ min: 1, max: 64 }), fileRef)
          .optional()
          .openapi({
            description: "the file bound to each of the template's slots, by slot name; every required slot is needed",
          }),
      })
      .strict()
      .optional()
      .openapi({ description: 'how to fill the template; may be left out when it has no required slot' }),
  })
  .strict();
