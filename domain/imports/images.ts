/** Images of imported documents become files of the content: fetched (web pages, markdown) or unpacked (archives). */
import { FetchError } from '../../platform/net/fetch-error';
import type { GuardedFetch } from '../../platform/net/guarded-fetch';
import type { Liveness } from '../jobs/liveness';
import type { StagingBatch } from './batch';

const TYPES_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** The image type a file name says, or null when it names no image. */
export function imageTypeOfName(name: string): string | null {
  return TYPES_BY_EXTENSION[/\.([a-z0-9]+)$/i.exec(name)?.[1].toLowerCase() ?? ''] ?? null;
}

export function fileNameOf(path: string, fallback: string): string {
  const last = path.split('/').filter(Boolean).pop();
  try {
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return last ?? fallback;
  }
}

/**
 * Fetches an image through the guarded client into a file of the import; the `file:<id>` reference
 * to it, or null when it could not be had (a failed fetch, not an image, the byte budget spent).
 */
export async function importRemoteImage(
  batch: StagingBatch,
  fetch: GuardedFetch,
  url: URL,
  live: Liveness,
): Promise<string | null> {
  url.hash = '';
  const source = url.href;
  return batch.image(source, () => fetchImage(batch, fetch, url, live));
}

async function fetchImage(batch: StagingBatch, fetch: GuardedFetch, url: URL, live: Liveness): Promise<string | null> {
  const source = url.href;
  if (batch.remainingBytes === 0) return null;
  const { signal } = live;
  live.heartbeat({ done: batch.state.processed });
  try {
    const res = await fetch.fetch(source, { maxBytes: batch.remainingBytes, signal, headers: { accept: 'image/*' } });
    batch.spend(res.body.length);
    const contentType = res.contentType?.split(';')[0].trim().toLowerCase() ?? imageTypeOfName(url.pathname);
    if (!contentType?.startsWith('image/')) {
      batch.noteImageFailed(source);
      return null;
    }
    return `file:${await batch.addImage(source, { name: fileNameOf(url.pathname, 'image'), contentType, bytes: res.body })}`;
  } catch (err) {
    if (!(err instanceof FetchError) || signal.aborted) throw err;
    batch.noteImageFailed(source);
    return null;
  }
}
