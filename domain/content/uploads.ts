/**
 * An uploaded file's bytes go to the blob store under a content address (`files/<spaceId>/<sha256>`),
 * so uploading the same bytes again stores nothing new; its FileEntry records where they are and,
 * for PNG, JPEG and GIF images, the dimensions read from the image header.
 */
import { createHash } from 'crypto';
import { imageSize } from 'image-size';
import type { BlobStore } from '../../platform/storage/blob-store';
import type { FileEntry } from './model';

const DIMENSIONED_TYPES = new Set(['png', 'jpg', 'gif']);

export interface Upload {
  name: string;
  contentType: string;
  bytes: Buffer;
}

function dimensionsOf(bytes: Buffer): { width: number; height: number } | undefined {
  try {
    const size = imageSize(bytes);
    return size.type && DIMENSIONED_TYPES.has(size.type) ? { width: size.width, height: size.height } : undefined;
  } catch {
    return undefined; // not an image (or a truncated one): no dimensions
  }
}

export async function storeUpload(blobs: BlobStore, spaceId: string, upload: Upload): Promise<FileEntry> {
  return storeFile(blobs, (sha256) => `files/${spaceId}/${sha256}`, upload);
}

/** Stores the bytes under the key their SHA-256 names (an import keeps its images under its own folder). */
export async function storeFile(
  blobs: BlobStore,
  keyOf: (sha256: string) => string,
  upload: Upload,
): Promise<FileEntry> {
  const blob = keyOf(createHash('sha256').update(upload.bytes).digest('hex'));
  await blobs.put(blob, upload.bytes, upload.contentType);
  return {
    name: upload.name,
    contentType: upload.contentType,
    size: upload.bytes.length,
    blob,
    ...dimensionsOf(upload.bytes),
  };
}
