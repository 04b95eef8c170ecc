import { z } from 'zod';
import type { FileEntry } from '../../domain/content/model';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { Presented } from '../../platform/wire/to-wire';

export const fileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    downloadURL: z.string().openapi({ description: 'time-limited URL of the bytes' }),
    size: z.number().int(),
    dimensions: z
      .object({ width: z.number().int(), height: z.number().int() })
      .optional()
      .openapi({ description: 'PNG, JPEG and GIF images only' }),
  })
  .openapi('File');

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
