/**
 * A private folder in the OS's temporary directory for the length of one step (a manuscript, a rendered PDF on their
 * way to or from the blob store), removed afterwards whatever happened, so a large file passes through disk instead
 * of memory.
 */
import { promises as fs } from 'fs';
import * as os from 'os';
import * as path from 'path';

export async function withTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
