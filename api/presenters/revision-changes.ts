import { z } from 'zod';
import type { ChangedPage, FileAttributes, SemanticChange, SemanticChanges } from '../../domain/content/changes';
import type { FileEntry } from '../../domain/content/model';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { Presented } from '../../platform/wire/to-wire';
import { changeRequestSchema } from './change-request';

const attribute = <T extends z.ZodTypeAny>(value: T) =>
  z
    .object({
      before: value.optional().openapi({ description: 'the value before the change; absent when it had none' }),
      after: value.optional().openapi({ description: 'the value after the change; absent when it has none' }),
    })
    .openapi({ description: 'the value before and after; a side without a value is absent' });

const changedPageSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the page' }),
    type: z.literal('document').openapi({ description: 'always `document`: every page holds a document body' }),
    title: z.string().openapi({ description: 'its title (after the change; a deleted page: before it)' }),
    path: z.string().openapi({ description: 'its path (after the change; a deleted page: before it)' }),
  })
  .openapi('ChangedPage', { description: 'A page named by a change' });

const changedFileSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the file' }),
    name: z.string().openapi({ description: 'its name (a deleted file: before it)' }),
    contentType: z.string().openapi({ description: 'media type of its bytes' }),
    downloadURL: z.string().openapi({ description: 'signed URL of its bytes (a deleted file: still there)' }),
  })
  .openapi('ChangedFile', { description: 'A file named by a change' });

const dimensions = z
  .object({
    width: z.number().int().openapi({ description: 'width of the image, in pixels' }),
    height: z.number().int().openapi({ description: 'height of the image, in pixels' }),
  })
  .openapi({ description: "an image's size" });

const changeSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('page_created').openapi({ description: 'a page was created' }),
      page: changedPageSchema,
    }),
    z.object({
      type: z.literal('page_edited').openapi({ description: 'attributes of a page changed' }),
      page: changedPageSchema,
      attributes: z
        .object({
          title: attribute(z.string()).optional().openapi({ description: 'the title changed' }),
          description: attribute(z.string()).optional().openapi({ description: 'the description changed' }),
          slug: attribute(z.string()).optional().openapi({ description: 'the slug changed (so its path)' }),
          document: attribute(z.string())
            .optional()
            .openapi({ description: 'the body changed: opaque ids of the body before and after' }),
          emoji: attribute(z.string()).optional().openapi({ description: 'the emoji changed' }),
        })
        .openapi({ description: 'the attributes that changed (at least one)' }),
    }),
    z.object({
      type: z.literal('page_deleted').openapi({ description: 'a page was deleted' }),
      page: changedPageSchema,
    }),
    z.object({
      type: z.literal('page_moved').openapi({ description: 'a page moved under another parent or among its siblings' }),
      page: changedPageSchema,
      parent: z
        .object({ before: changedPageSchema.optional(), after: changedPageSchema.optional() })
        .openapi({ description: 'the parent page before and after; absent at the root level' }),
    }),
    z.object({ type: z.literal('file_created').openapi({ description: 'a file was added' }), file: changedFileSchema }),
    z.object({
      type: z.literal('file_edited').openapi({ description: 'attributes of a file changed' }),
      file: changedFileSchema,
      attributes: z
        .object({
          name: attribute(z.string()).optional().openapi({ description: 'the name changed' }),
          downloadURL: attribute(z.string()).optional().openapi({ description: 'the bytes changed' }),
          size: attribute(z.number().int()).optional().openapi({ description: 'the size in bytes changed' }),
          contentType: attribute(z.string()).optional().openapi({ description: 'the media type changed' }),
          dimensions: attribute(dimensions).optional().openapi({ description: "the image's size changed" }),
        })
        .openapi({ description: 'the attributes that changed (at least one)' }),
    }),
    z.object({
      type: z.literal('file_deleted').openapi({ description: 'a file was deleted' }),
      file: changedFileSchema,
    }),
    z.object({
      type: z.literal('variables_edited').openapi({ description: "the revision's variables changed" }),
      variables: z.record(attribute(z.string())).openapi({ description: 'each variable that changed, by name' }),
    }),
  ])
  .openapi('SemanticChange', { description: 'One change between two revisions' });

export const semanticChangesSchema = z
  .object({
    changes: z.array(changeSchema).openapi({
      description:
        'pages created, edited, moved, deleted (each by title), then files created, edited, deleted (by name), then variables',
    }),
    more: z.number().int().openapi({ description: 'how many changes were left out past `limit`' }),
    mergedFrom: changeRequestSchema.optional(),
  })
  .openapi('RevisionSemanticChanges', { description: 'What changed between a revision and the one before it' });

type ChangeJson = Presented<typeof changeSchema>;

const page = (p: ChangedPage) => ({ id: p.id, type: 'document' as const, title: p.title, path: p.path });

export async function presentSemanticChanges(
  result: SemanticChanges,
  blobs: BlobStore,
  mergedFrom: Presented<typeof changeRequestSchema> | undefined,
): Promise<Presented<typeof semanticChangesSchema>> {
  const url = (entry: FileEntry, blob = entry.blob) =>
    blobs.downloadUrl(blob, { filename: entry.name, contentType: entry.contentType });
  const file = async (id: string, entry: FileEntry) => ({
    id,
    name: entry.name,
    contentType: entry.contentType,
    downloadURL: await url(entry),
  });
  const fileAttributes = async (entry: FileEntry, { blob, ...rest }: FileAttributes) => ({
    ...rest,
    ...(blob
      ? {
          downloadURL: {
            ...(blob.before ? { before: await url(entry, blob.before) } : {}),
            ...(blob.after ? { after: await url(entry, blob.after) } : {}),
          },
        }
      : {}),
  });
  const present = async (change: SemanticChange): Promise<ChangeJson> => {
    switch (change.type) {
      case 'page_created':
      case 'page_deleted':
        return { type: change.type, page: page(change.page) };
      case 'page_edited':
        return { type: change.type, page: page(change.page), attributes: change.attributes };
      case 'page_moved':
        return {
          type: change.type,
          page: page(change.page),
          parent: {
            before: change.parent.before && page(change.parent.before),
            after: change.parent.after && page(change.parent.after),
          },
        };
      case 'file_created':
      case 'file_deleted':
        return { type: change.type, file: await file(change.file.id, change.file.entry) };
      case 'file_edited':
        return {
          type: change.type,
          file: await file(change.file.id, change.file.entry),
          attributes: await fileAttributes(change.file.entry, change.attributes),
        };
      case 'variables_edited':
        return { type: change.type, variables: change.variables };
    }
  };
  return { changes: await Promise.all(result.changes.map(present)), more: result.more, mergedFrom };
}
