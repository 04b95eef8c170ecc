/**
 * What a content template is: a tree of pages whose markdown is rendered when the template is
 * applied, so pages can link to each other by id and show the files bound to the template's slots.
 */

/** A named place for a file of the space (a logo, an OpenAPI document), bound when applying. */
export interface TemplateSlot {
  name: string;
  description: string;
  required: boolean;
}

/** What page markdown is rendered with. */
export interface TemplateContext {
  /** `page:<id>` of another page of the same template, named by its key */
  page(key: string): string;
  /** `file:<id>` of the file bound to the slot, or null when an optional slot is left unbound */
  file(slot: string): string | null;
}

export interface TemplatePage {
  /** names the page inside its template, for links between its pages */
  key: string;
  title: string;
  emoji?: string;
  description?: string;
  hidden?: boolean;
  markdown: (ctx: TemplateContext) => string;
  children?: TemplatePage[];
}

export interface Template {
  id: string;
  title: string;
  description: string;
  slots: TemplateSlot[];
  pages: TemplatePage[];
}

/** An image paragraph for a bound slot, or nothing when the slot is unbound. */
export function imageBlock(ref: string | null, alt: string): string {
  return ref ? `![${alt}](${ref})\n\n` : '';
}
