/**
 * Applying a template to a space: its pages are added after the space's root pages as ONE
 * `template` revision. Slots are bound to files of the space's current revision, checked under
 * the head lock so the files cannot vanish in between.
 */

import type { Revision } from '../../../entities/Revision';
import type { WorkTx } from '../../../platform/db/after-commit';

import { badRequest } from '../../errors';
import { newId } from '../../ids';
import type { ContentEditor } from '../editor';
import { commitToHead } from '../heads';
import { ContentReader } from '../reader';
import { findTemplate, TEMPLATES } from './index';
import type { Template, TemplateContext, TemplatePage } from './model';

export interface FileRef {
  kind: 'file';
  file: string;
}

export interface ApplyTemplate {
  id: string;
  contentRefs: Record<string, FileRef>;
}

const REFS = 'params.contentRefs';

function templateOrFail(id: string): Template {
  const template = findTemplate(id);
  if (!template) throw badRequest(`id: unknown template (known: ${TEMPLATES.map((t) => t.id).join(', ')})`);
  return template;
}

function assertSlots(template: Template, refs: Record<string, FileRef>): void {
  const declared = new Set(template.slots.map((s) => s.name));
  for (const name of Object.keys(refs)) if (!declared.has(name)) throw badRequest(`${REFS}.${name}: unknown slot`);
  for (const slot of template.slots)
    if (slot.required && !refs[slot.name]) throw badRequest(`${REFS}.${slot.name}: is required`);
}

async function assertFilesExist(editor: ContentEditor, refs: Record<string, FileRef>): Promise<void> {
  const present = await new ContentReader(editor.store, editor.baseRoot).hasFiles(
    Object.values(refs).map((r) => r.file),
  );
  for (const [name, ref] of Object.entries(refs))
    if (!present.has(ref.file)) throw badRequest(`${REFS}.${name}.file: no such file in this space`);
}

function assignIds(pages: TemplatePage[], ids: Map<string, string>): void {
  for (const page of pages) {
    ids.set(page.key, newId());
    assignIds(page.children ?? [], ids);
  }
}

/** Resolves page keys and slots; an unknown key or slot is a mistake in the template itself. */
function contextOf(template: Template, pageIds: Map<string, string>, refs: Record<string, FileRef>): TemplateContext {
  return {
    page(key) {
      const id = pageIds.get(key);
      if (!id) throw new Error(`template ${template.id}: no page with key "${key}"`);
      return `page:${id}`;
    },
    file(slot) {
      if (!template.slots.some((s) => s.name === slot)) throw new Error(`template ${template.id}: no slot "${slot}"`);
      return refs[slot] ? `file:${refs[slot].file}` : null;
    },
  };
}

async function createPages(
  editor: ContentEditor,
  pages: TemplatePage[],
  parent: string | null,
  pageIds: Map<string, string>,
  ctx: TemplateContext,
): Promise<void> {
  for (const page of pages) {
    const id = pageIds.get(page.key)!;
    await editor.createPage(
      {
        title: page.title,
        markdown: page.markdown(ctx),
        emoji: page.emoji ?? null,
        description: page.description ?? null,
        hidden: page.hidden ?? false,
      },
      { parent },
      id,
    );
    await createPages(editor, page.children ?? [], id, pageIds, ctx);
  }
}

export async function applyTemplate(
  db: WorkTx,
  spaceId: string,
  input: ApplyTemplate,
  options: { createdById: string; appBaseUrl: string },
): Promise<Revision> {
  const template = templateOrFail(input.id);
  assertSlots(template, input.contentRefs);
  const { revision } = await commitToHead(
    db,
    { kind: 'space', spaceId },
    { type: 'template', ...options },
    async (editor) => {
      await assertFilesExist(editor, input.contentRefs);
      const pageIds = new Map<string, string>();
      assignIds(template.pages, pageIds);
      await createPages(editor, template.pages, null, pageIds, contextOf(template, pageIds, input.contentRefs));
    },
  );
  return revision;
}
