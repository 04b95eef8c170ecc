import { z } from 'zod';
import type { Template } from '../../domain/content/templates/model';
import type { Presented } from '../../platform/wire/to-wire';

export const templateSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    slots: z.array(z.object({ name: z.string(), description: z.string(), required: z.boolean() })),
  })
  .openapi('Template');

export function presentTemplate(template: Template): Presented<typeof templateSchema> {
  return {
    id: template.id,
    title: template.title,
    description: template.description,
    slots: template.slots.map((s) => ({ name: s.name, description: s.description, required: s.required })),
  };
}
