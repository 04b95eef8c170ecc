/** The template catalogue (documented in docs/templates.md). Add a template: one file beside this one, one line below. */
import { apiReference } from './api-reference';
import { knowledgeBase } from './knowledge-base';
import type { Template } from './model';
import { productGuide } from './product-guide';

export const TEMPLATES: readonly Template[] = [productGuide, apiReference, knowledgeBase];

export function findTemplate(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
