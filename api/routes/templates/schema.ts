import { z } from 'zod';
import { resourceId } from '../../schemas';

const fileRef = z.object({ kind: z.literal('file'), file: resourceId }).strict();

export const applyTemplateBody = z
  .object({
    id: z.string().min(1).max(64),
    params: z
      .object({ contentRefs: z.record(z.string().min(1).max(64), fileRef).optional() })
      .strict()
      .optional(),
  })
  .strict();
