/** Reading a version's bundle back from the blob store. */
import type { OpenAPISpecVersion } from '../../entities/OpenAPISpecVersion';
import type { BlobStore } from '../storage/blob-store';
import type { BundleFile } from './bundle';

export async function readBundle(blobs: BlobStore, version: OpenAPISpecVersion): Promise<Record<string, BundleFile>> {
  return JSON.parse((await blobs.read(version.filesystemKey)).toString('utf8')) as Record<string, BundleFile>;
}
