import { z } from 'zod';
import { resourceId, text } from '../../schemas';

const fileRef = z.object({ kind: z.literal('file'), file: resourceId }).strict();

export const applyTemplateBody = z
  .object({
    id: text({ min: 1, max: 64 }),
    params: z
      .object({ contentRefs: z.record(text({ min: 1, max: 64 }), fileRef).optional() })
      .strict()
      .optional(),
  })
  .strict();
