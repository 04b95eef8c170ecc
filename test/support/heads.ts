/** Writing and reading content heads through the content core, for tests that need content without its routes. */

import type { ContentEditor } from '../../domain/content/editor';
import { commitToHead, Head } from '../../domain/content/heads';
import { ObjectStore } from '../../domain/content/objects';
import { ContentReader } from '../../domain/content/reader';
import { Revision } from '../../entities/Revision';
import { inTransaction } from '../../platform/db/transactions';
import { heldBack } from './held-back';
import type { TestServer } from './server';

/** Commits one `edits` revision to the head, written by `userId`; returns the edit's result and the revision. */
export async function writeHead<T>(
  server: TestServer,
  head: Head,
  userId: string,
  edit: (editor: ContentEditor) => Promise<T>,
): Promise<{ result: T; revision: Revision }> {
  return inTransaction(heldBack(server.ds), (db) =>
    commitToHead(db, head, { type: 'edits', createdById: userId, appBaseUrl: server.config.appBaseUrl }, edit),
  );
}

/** The content of one revision. */
export async function readRevision(server: TestServer, revisionId: string): Promise<ContentReader> {
  const revision = await server.ds.manager.findOneByOrFail(Revision, { id: revisionId });
  return new ContentReader(new ObjectStore(server.ds.manager), revision.root);
}
