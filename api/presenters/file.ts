import { z } from 'zod';
import type { FileEntry } from '../../domain/content/model';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { Presented } from '../../platform/wire/to-wire';

export const fileSchema = z
  .object({
    id: z.string().openapi({ description: 'id of the file; markdown links to it as `file:<id>`' }),
    name: z.string().openapi({ description: 'file name, as uploaded or given with `?name`' }),
    contentType: z.string().openapi({ description: 'media type of the bytes, e.g. `image/png`' }),
    downloadURL: z.string().openapi({
      description: 'signed URL of the bytes, valid for BLOB_URL_TTL_SECONDS; anyone holding it can download',
    }),
    size: z.number().int().openapi({ description: 'size of the file in bytes' }),
    dimensions: z
      .object({
        width: z.number().int().openapi({ description: 'image width in pixels' }),
        height: z.number().int().openapi({ description: 'image height in pixels' }),
      })
      .optional()
      .openapi({ description: 'PNG, JPEG and GIF images only' }),
  })
  .openapi('File', { description: 'A file of the content (an image, a document…), with a link to download it' });

export async function presentFile(
  id: string,
  file: FileEntry,
  blobs: BlobStore,
): Promise<Presented<typeof fileSchema>> {
  return {
    id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: await blobs.downloadUrl(file.blob, { filename: file.name, contentType: file.contentType }),
    size: file.size,
    dimensions:
      file.width !== undefined && file.height !== undefined ? { width: file.width, height: file.height } : null,
  };
}
