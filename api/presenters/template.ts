import { z } from 'zod';
import type { Template } from '../../domain/content/templates/model';
import type { Presented } from '../../platform/wire/to-wire';

export const templateSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the template, to pass as `id` when applying it' }),
    title: z.string().openapi({ description: 'name of the template' }),
    description: z.string().openapi({ description: 'what the template sets up' }),
    slots: z
      .array(
        z.object({
          name: z.string().openapi({ description: 'name of the slot, the key in `params.contentRefs`' }),
          description: z.string().openapi({ description: 'what file the slot expects (a logo, an OpenAPI document…)' }),
          required: z.boolean().openapi({ description: 'true: applying the template without this slot is refused' }),
        }),
      )
      .openapi({ description: 'the files of the space the template can show; each is bound when applying' }),
  })
  .openapi('Template', { description: 'A content template: a tree of pages added to a space in one revision' });

export function presentTemplate(template: Template): Presented<typeof templateSchema> {
  return {
    id: template.id,
    title: template.title,
    description: template.description,
    slots: template.slots.map((s) => ({ name: s.name, description: s.description, required: s.required })),
  };
}
