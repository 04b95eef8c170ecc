/** Reading a version's bundle back from the blob store. */
import type { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import { type BlobStore, BlobTooLarge } from '../../platform/storage/blob-store';
import { conflict } from '../errors';
import type { BundleFile } from './bundle';

/**
 * The version's files; a bundle over `maxBytes` (stored before that limit, or under a larger one) is a 409,
 * neither read nor parsed: parsing a few hundred megabytes would end the process.
 */
export async function readBundle(
  blobs: BlobStore,
  version: OpenAPISpecVersion,
  maxBytes: number,
): Promise<Record<string, BundleFile>> {
  let bytes: Buffer;
  try {
    bytes = await blobs.read(version.filesystemKey, { maxBytes });
  } catch (err) {
    if (!(err instanceof BlobTooLarge)) throw err;
    throw conflict(
      `OpenAPI specification version: its bundle is ${err.size} bytes, more than the ${maxBytes} served (OPENAPI_BUNDLE_MAX_BYTES)`,
    );
  }
  return JSON.parse(bytes.toString('utf8')) as Record<string, BundleFile>;
}
